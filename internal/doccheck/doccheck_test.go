package doccheck

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The patterns are assembled from pieces so that this file does not match
// them itself.
var (
	// outside matches references to material outside the repository.
	outside = []*regexp.Regexp{
		regexp.MustCompile(`(?i)tm-` + `automata`),
		regexp.MustCompile(`(?i)seed 0` + `0[0-9]`),
		regexp.MustCompile(regexp.QuoteMeta(`..` + `/shared`)),
		regexp.MustCompile(`shared/` + `(?:reference|seeds)/`),
	}
	// mdLink matches an inline Markdown link and captures its target.
	mdLink = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)
	// codeSpan matches an inline code span and captures its content.
	codeSpan = regexp.MustCompile("`([^`]+)`")
	// repoPath matches a whole repository path of the checked forms.
	repoPath = regexp.MustCompile(`^(?:docs/\S+\.md|(?:specs|algorithms|proofs)/\S+\.ya?ml|scripts/\S*)$`)
	// barePath finds such paths anywhere in a line of YAML.
	barePath = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./-])((?:docs/[A-Za-z0-9_./-]+\.md|(?:specs|algorithms|proofs)/[A-Za-z0-9_./-]+\.ya?ml|scripts/[A-Za-z0-9_./-]+))`)
)

// tracked returns the repository root and its git-tracked files, or skips
// the test when git cannot list them.
func tracked(t *testing.T) (string, []string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not available")
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not a git work tree: %v", err)
	}
	root := strings.TrimSpace(string(top))
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	var files []string
	for _, f := range bytes.Split(out, []byte{0}) {
		if len(f) > 0 {
			files = append(files, string(f))
		}
	}
	return root, files
}

func isText(f string) bool {
	switch filepath.Ext(f) {
	case ".md", ".yaml", ".yml", ".go", ".sh":
		return true
	}
	return filepath.Base(f) == "Makefile"
}

// lines returns the lines of a tracked file, or nil when it is absent from
// the work tree (deleted but not yet committed).
func lines(t *testing.T, root, f string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, f))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var ls []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		ls = append(ls, sc.Text())
	}
	return ls
}

func TestNoOutsideReferences(t *testing.T) {
	root, files := tracked(t)
	for _, f := range files {
		if !isText(f) {
			continue
		}
		for i, line := range lines(t, root, f) {
			for _, re := range outside {
				if m := re.FindString(line); m != "" {
					t.Errorf("%s:%d: refers to %q, outside the repository; cite the paper by its short name (docs/references.md) or a page in docs/", f, i+1, m)
				}
			}
		}
	}
}

// exists reports whether path, relative to the repository root or to dir
// (a directory of the repository), names an existing file or directory.
func exists(root, dir, path string) bool {
	for _, base := range []string{dir, root} {
		if _, err := os.Stat(filepath.Join(base, filepath.FromSlash(path))); err == nil {
			return true
		}
	}
	return false
}

// placeholder reports whether a path is a pattern rather than a file name
// (a glob, or a placeholder such as <file> or …).
func placeholder(p string) bool {
	return strings.ContainsAny(p, "*?<>{}[]…")
}

func TestRepositoryPathsExist(t *testing.T) {
	root, files := tracked(t)
	for _, f := range files {
		dir := filepath.Join(root, filepath.Dir(f))
		switch filepath.Ext(f) {
		case ".md":
			fenced := false
			for i, line := range lines(t, root, f) {
				if strings.HasPrefix(strings.TrimSpace(line), "```") {
					fenced = !fenced
					continue
				}
				if fenced {
					continue
				}
				for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
					p := m[1]
					if repoPath.MatchString(p) && !placeholder(p) && !exists(root, root, p) {
						t.Errorf("%s:%d: `%s` does not exist in the repository", f, i+1, p)
					}
				}
				plain := codeSpan.ReplaceAllString(line, "")
				for _, m := range mdLink.FindAllStringSubmatch(plain, -1) {
					target := m[1]
					if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "#") {
						continue
					}
					if j := strings.IndexByte(target, '#'); j >= 0 {
						target = target[:j]
					}
					if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(target))); err != nil {
						t.Errorf("%s:%d: link target %s does not exist", f, i+1, m[1])
					}
				}
			}
		case ".yaml", ".yml":
			for i, line := range lines(t, root, f) {
				for _, m := range barePath.FindAllStringSubmatch(line, -1) {
					p := strings.TrimRight(m[1], ".")
					if !placeholder(p) && !exists(root, dir, p) {
						t.Errorf("%s:%d: %s does not exist in the repository", f, i+1, p)
					}
				}
			}
		}
	}
}
