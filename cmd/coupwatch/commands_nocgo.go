//go:build !cgo

package main

// cgoCommands is empty without cgo: detect and calibrate need OpenCV.
func cgoCommands() []command { return nil }
