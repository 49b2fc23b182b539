// Command coupwatch is the casino table surveillance agent and its tools.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], newEnv()))
}
