// Command floor is the throughput floor of the benchmark: it reads its input
// (files, or standard input) in 64 KiB reads and counts the ':' bytes with
// bytes.Count, the least work any URI finder anchored on ':' must do.
// It prints the count.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

func count(r io.Reader, buf []byte) (int64, error) {
	var n int64
	for {
		k, err := r.Read(buf)
		n += int64(bytes.Count(buf[:k], []byte{':'}))
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

func main() {
	buf := make([]byte, 64<<10)
	var total int64
	files := os.Args[1:]
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		var r io.Reader = os.Stdin
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				fmt.Fprintln(os.Stderr, "floor:", err)
				os.Exit(2)
			}
			defer f.Close()
			r = f
		}
		n, err := count(r, buf)
		if err != nil {
			fmt.Fprintln(os.Stderr, "floor:", err)
			os.Exit(2)
		}
		total += n
	}
	fmt.Println(total)
}
