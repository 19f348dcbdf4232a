package driver

import (
	"os"
	"syscall"
)

// fileStamp is what the file system says of a file's identity and last
// change: device, inode, size, and modification and change times. A write
// to the file, or a rename over it, changes it (the change time cannot be
// set back). The zero stamp is unknown.
type fileStamp struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64
}

// stampOf returns the stamp of the file at path; the zero stamp when it
// cannot be read.
func stampOf(path string) fileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStamp{}
	}
	return fileStamp{dev: uint64(st.Dev), ino: st.Ino, size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}
}
