package main

import (
	"debug/elf"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
)

// buildWorker is the command that makes a worker binary, from beam/.
// CGO_ENABLED=0 as the SDK's own build (runnerlib.BuildTempWorkerBinary):
// the Go SDK container (apache/beam_go_sdk, distroless) runs the binary
// it is given, and one linked against the launching machine's libc may
// not start there.
const buildWorker = "CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -o urix-beam-worker ./cmd/urix-beam"

// shipsWorker reports whether the runner sends a worker binary to its
// workers: Dataflow stages it on GCS, the portable runners (Flink, Spark)
// through the job server's artifact service. Prism, direct and dot run
// the pipeline in this process, and a LOOPBACK environment too.
func shipsWorker(runner, environment string) bool {
	switch strings.ToLower(runner) {
	case "dataflow", "dataflowrunner", "universal", "portable", "portablerunner", "flink", "flinkrunner", "spark", "sparkrunner":
		return !strings.EqualFold(environment, "loopback")
	}
	return false
}

// setWorkerBinary sees that a runner that ships a worker binary has one
// that will start on its workers. Without --worker_binary, Beam 2.77 runs
// `go build` on the directory of the launching main.go
// (runnerlib.BuildTempWorkerBinary: IsWorkerCompatibleBinary always says
// no), which works only where those sources are (the checkout urix-beam
// was built from) and Go is installed; so urix-beam gives itself when it
// is such a binary, and else says how to build one. A binary that is given is checked, so that a wrong one
// fails here, not on the workers after the job was staged.
func setWorkerBinary() error {
	if !shipsWorker(*runners.Runner, *jobopts.EnvironmentType) {
		return nil
	}
	if *jobopts.WorkerBinary != "" {
		return checkWorkerBinary(*jobopts.WorkerBinary)
	}
	self, err := os.Executable()
	if err == nil && runtime.GOOS == "linux" && runtime.GOARCH == "amd64" && checkWorkerBinary(self) == nil {
		return flag.Set("worker_binary", self)
	}
	return fmt.Errorf("--runner=%s sends the workers a Linux binary of urix-beam, and this one is not a static linux/amd64 binary: build one with\n\t%s\nand give --worker_binary=urix-beam-worker", *runners.Runner, buildWorker)
}

// checkWorkerBinary says what keeps the file at path from running in the
// Go SDK container: not a Linux executable, for another machine than
// amd64 or arm64 (Dataflow's t2a machines), or dynamically linked.
func checkWorkerBinary(path string) error {
	file, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("--worker_binary: %w", err)
	}
	defer file.Close()
	f, err := elf.NewFile(file)
	if err != nil {
		return fmt.Errorf("--worker_binary %s is not a Linux binary: build it with\n\t%s", path, buildWorker)
	}
	if f.Type != elf.ET_EXEC && f.Type != elf.ET_DYN {
		return fmt.Errorf("--worker_binary %s is not an executable: build it with\n\t%s", path, buildWorker)
	}
	if f.Machine != elf.EM_X86_64 && f.Machine != elf.EM_AARCH64 {
		return fmt.Errorf("--worker_binary %s is for %v, not amd64 or arm64: build it with\n\t%s", path, f.Machine, buildWorker)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return fmt.Errorf("--worker_binary %s is dynamically linked (built with cgo): build it with\n\t%s", path, buildWorker)
		}
	}
	return nil
}
