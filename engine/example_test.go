package engine_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urix-dev/urix/engine"
)

// The URIs of two files, with line numbers, as `urix -n` prints them.
func ExampleRun() {
	dir, _ := os.MkdirTemp("", "urix-example")
	defer os.RemoveAll(dir)
	a := filepath.Join(dir, "a.txt")
	b := filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("See <http://example.com/some/\n  path> and\nhttps://example.org/x.\n"), 0o644)
	os.WriteFile(b, []byte("nothing here\n"), 0o644)

	o := engine.DefaultOptions()
	o.Output.Line = true
	o.Stdout = os.Stdout
	res := engine.Run([]string{a, b}, o)
	fmt.Println("status", res.Status, "files", res.Stats.Files, "URIs", res.Stats.Found)
	// Output:
	// 1:http://example.com/some/path
	// 3:https://example.org/x
	// status 0 files 2 URIs 2
}

// A reader in place of standard input, read as mail: the JSON record
// says which message and part each URI came from.
func ExampleRun_reader() {
	mbox := "From a@example.com Mon Jan  1 00:00:00 2024\n" +
		"Subject: hello\n\nsee http://example.com/1\n\n" +
		"From b@example.com Mon Jan  1 00:00:00 2024\n" +
		"Subject: again\n\nsee http://example.com/2\n"
	var out bytes.Buffer
	o := engine.DefaultOptions()
	o.Stdin = strings.NewReader(mbox)
	o.Stdout = &out
	o.Output.JSON = true
	engine.Run(nil, o)
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		uri, _, _ := strings.Cut(strings.TrimPrefix(line, `{"uri":"`), `"`)
		_, msg, _ := strings.Cut(line, `"message":`)
		msg, _, _ = strings.Cut(msg, ",")
		fmt.Println(uri, "in message", msg)
	}
	// Output:
	// http://example.com/1 in message 1
	// http://example.com/2 in message 2
}

// -l over a directory: the files with a URI, in path order, whatever
// the number of workers.
func ExampleRun_list() {
	dir, _ := os.MkdirTemp("", "urix-example")
	defer os.RemoveAll(dir)
	for i, text := range []string{"http://a.example/", "no link", "mailto:x@y.example"} {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.txt", i)), []byte(text+"\n"), 0o644)
	}
	var out bytes.Buffer
	o := engine.DefaultOptions()
	o.Recursive, o.List, o.Jobs = true, engine.ListWithMatches, 4
	o.Stdout = &out
	engine.Run([]string{dir}, o)
	fmt.Print(strings.ReplaceAll(out.String(), dir+string(filepath.Separator), ""))
	// Output:
	// 0.txt
	// 2.txt
}
