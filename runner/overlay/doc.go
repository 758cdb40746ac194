// Package overlay owns the copy-on-write view of a project folder that a
// trial's tools work in: reads fall through to the real files, and every
// write, edit, deletion and rename lands in an overlay folder that the run
// owns (inside the run folder, or a temporary folder). Nothing outside the
// overlay folder ever changes: the real project is only read.
//
// An Overlay is ready at once: New opens the two folders and copies
// nothing; a file is copied only when it is written. Paths are confined:
// a path is taken relative to the project (an absolute path only when it
// lies inside it); `..` that leads out is refused; a read that falls
// through to the project resolves symbolic links and refuses any that lead
// out; a write onto a link of the project lands on its target in the view
// (the link stays), as the runtime's write follows it, and a link that
// leads out is refused; the overlay's own files are reached through an os.Root, so a link
// planted there (by a shell command) cannot lead out either; a rename is a
// write of the new path and a deletion of the old, both inside the view.
//
// The overlay records what the run changed. Changes lists it, and Patch
// renders it as a unified diff in git's format that `git apply` accepts
// from the project root (changes.patch in the run folder). Symbolic links
// are shown as git shows them (mode 120000, the target as the content);
// binary files in git's binary patch form (`GIT binary patch`, a literal
// hunk: zlib and base85); special files are listed in the patch's header,
// not diffed.
//
// A WorkTree is a full copy of the view for a shell command to run in:
// made on the first command (the only time the project is copied), kept
// in step with the overlay's writes, and read back after each command so
// the command's own writes land in the overlay. It copies symbolic links
// as links, never following them, and points those that lead into the
// project at the copy instead (see WorkTree).
//
// Two overlays of the same project never meet: each has its own folder
// and its own record of changes.
package overlay
