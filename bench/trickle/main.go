// Command trickle copies standard input to standard output in writes of
// a few bytes (997 by default, or the first argument), so that a reader at
// the other end of a pipe sees its input cut at arbitrary places.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
)

func main() {
	n := 997
	if len(os.Args) > 1 {
		v, err := strconv.Atoi(os.Args[1])
		if err != nil || v < 1 {
			fmt.Fprintln(os.Stderr, "usage: trickle [BYTES]")
			os.Exit(2)
		}
		n = v
	}
	r := bufio.NewReaderSize(os.Stdin, 1<<20)
	buf := make([]byte, n)
	for {
		k, err := io.ReadFull(r, buf)
		if k > 0 {
			if _, werr := os.Stdout.Write(buf[:k]); werr != nil {
				fmt.Fprintln(os.Stderr, "trickle:", werr)
				os.Exit(2)
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "trickle:", err)
			os.Exit(2)
		}
	}
}
