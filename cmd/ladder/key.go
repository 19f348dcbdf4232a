// This file implements `ladder key`: the user's signing key, and new keys
// for CI.

package main

import (
	"flag"
	"fmt"

	"ladder/internal/sign"
)

func init() {
	register(&command{
		name:  "key",
		args:  "[--new FILE]",
		short: "print your signing key's public line, or make a new key file",
		long: `Key prints the public line of your signing key (created on first use in
your configuration directory, or the file named by LADDER_KEY_FILE): the
line that others add to ladder-keys.txt at the root of a repository to trust
the verdicts you sign (docs/team.md).

With --new FILE it makes a new key in FILE (mode 0600; an existing FILE is
never overwritten) and prints its public line: a key for CI, handed to it
as a secret and named by LADDER_KEY_FILE.

It exits with 0, and with 2 when the key cannot be read or made.`,
		setup: func(fs *flag.FlagSet) func(*env, []string) int {
			newFile := fs.String("new", "", "make a new key in `FILE` and print its public line")
			comment := fs.String("comment", "", "the comment of a new key's public line (default: user@host)")
			return func(e *env, paths []string) int {
				if len(paths) > 0 {
					return e.usageError("key", "unexpected argument %q", paths[0])
				}
				var s *sign.Signer
				var err error
				if *newFile != "" {
					s, err = sign.NewKeyFile(*newFile, sign.Config{Comment: *comment})
				} else {
					s, err = sign.OpenSigner(sign.Config{Getenv: e.getenv, Comment: *comment})
				}
				if err != nil {
					e.errorf("key", "%v", err)
					return exitUsage
				}
				fmt.Fprintln(e.stdout, s.PublicKeyLine())
				return exitOK
			}
		},
	})
}
