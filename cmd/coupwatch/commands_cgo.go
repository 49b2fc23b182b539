//go:build cgo

package main

// cgoCommands lists the subcommands that need OpenCV (gocv).
func cgoCommands() []command {
	return []command{{name: "detect", summary: "recognise cards or dice in images (one JSON line per image), or follow the dice throws of a clip (one per throw)", run: runDetect}}
}
