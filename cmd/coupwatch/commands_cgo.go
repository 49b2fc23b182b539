//go:build cgo

package main

// cgoCommands lists the subcommands that need OpenCV (gocv).
func cgoCommands() []command {
	return []command{{name: "detect", summary: "recognise cards or dice in images and print one JSON line per image", run: runDetect}}
}
