//go:build cgo

package main

// cgoCommands lists the subcommands that need OpenCV (gocv).
func cgoCommands() []command {
	return nil
}
