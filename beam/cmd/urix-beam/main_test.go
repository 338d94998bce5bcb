package main

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/binary"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core"
	jobpb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/jobmanagement_v1"
	pipepb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/pipeline_v1"
	"github.com/urix-dev/urix/beam/pipeline"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// runMain makes the test binary urix-beam itself when it is started with
// it set, so that the tests run the command as a user does (its flags
// parsed by the flag package, the runner's as the runner parses them).
const runMain = "URIX_BEAM_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMain) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// readme is beam/README.md, whose commands the tests run.
func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readmeCommand is the arguments of the command of README.md's code
// blocks that starts with prefix, its continued lines joined and its
// words split as sh splits them (single quotes only: the README uses
// no other).
func readmeCommand(t *testing.T, prefix string) []string {
	t.Helper()
	var line string
	in := false
	for _, l := range strings.Split(readme(t), "\n") {
		l = strings.TrimSpace(l)
		if !in && !strings.HasPrefix(l, prefix) {
			continue
		}
		in = true
		cont := strings.HasSuffix(l, `\`)
		line += strings.TrimSuffix(l, `\`) + " "
		if !cont {
			break
		}
	}
	if line == "" {
		t.Fatalf("README.md has no command %q", prefix)
	}
	var words []string
	for _, w := range regexp.MustCompile(`'[^']*'|[^\s']+`).FindAllString(line, -1) {
		words = append(words, strings.Trim(w, "'"))
	}
	return words[1:]
}

// flagValue is the value of --name=V or --name V in args.
func flagValue(t *testing.T, args []string, name string) string {
	t.Helper()
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
		if a == "--"+name && i+1 < len(args) {
			return args[i+1]
		}
	}
	t.Fatalf("no --%s in %q", name, args)
	return ""
}

// builtWorker is the file that buildWorker makes (its -o).
func builtWorker(t *testing.T) string {
	t.Helper()
	words := strings.Fields(buildWorker)
	for i, w := range words {
		if w == "-o" && i+1 < len(words) {
			return words[i+1]
		}
	}
	t.Fatalf("no -o in %q", buildWorker)
	return ""
}

// urixBeam runs urix-beam with args in dir. Google's credentials are
// looked for in a file that is not there: the lookup fails at once, so
// that nothing goes to the network even where credentials are set up.
func urixBeam(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), runMain+"=1", "GOOGLE_APPLICATION_CREDENTIALS="+filepath.Join(dir, "no-credentials.json"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// writeELF writes the header of a Linux executable for machine, with
// the interpreter of a dynamically linked one when dynamic: what
// checkWorkerBinary reads (a dry run stages nothing, so it is all the
// worker binary the README's Dataflow command needs here).
func writeELF(t *testing.T, path string, machine elf.Machine, dynamic bool) {
	t.Helper()
	h := elf.Header64{
		Type:      uint16(elf.ET_EXEC),
		Machine:   uint16(machine),
		Version:   uint32(elf.EV_CURRENT),
		Phoff:     64,
		Ehsize:    64,
		Phentsize: 56,
	}
	copy(h.Ident[:], elf.ELFMAG)
	h.Ident[elf.EI_CLASS] = byte(elf.ELFCLASS64)
	h.Ident[elf.EI_DATA] = byte(elf.ELFDATA2LSB)
	h.Ident[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	progs := []elf.Prog64{{Type: uint32(elf.PT_LOAD)}}
	if dynamic {
		progs = append(progs, elf.Prog64{Type: uint32(elf.PT_INTERP)})
	}
	h.Phnum = uint16(len(progs))
	var b bytes.Buffer
	if err := binary.Write(&b, binary.LittleEndian, h); err != nil {
		t.Fatal(err)
	}
	if err := binary.Write(&b, binary.LittleEndian, progs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o755); err != nil {
		t.Fatal(err)
	}
}

// loggedMsg is the msg of the first log line of out that starts with
// prefix (the runner logs with slog's text format: msg="...").
func loggedMsg(t *testing.T, out, prefix string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		_, q, ok := strings.Cut(l, " msg=")
		if !ok || !strings.HasPrefix(q, `"`) {
			continue
		}
		q, err := strconv.QuotedPrefix(q)
		if err != nil {
			continue
		}
		if msg, err := strconv.Unquote(q); err == nil && strings.HasPrefix(msg, prefix) {
			return msg
		}
	}
	t.Fatalf("no log message %q in:\n%s", prefix, out)
	return ""
}

// dataflowJob is what the test reads of the Dataflow job that a dry run
// prints (google.golang.org/api/dataflow/v1b3's Job, as JSON).
type dataflowJob struct {
	ProjectID   string `json:"projectId"`
	Type        string `json:"type"`
	Environment struct {
		TempStoragePrefix  string `json:"tempStoragePrefix"`
		SdkPipelineOptions struct {
			Options struct {
				Region string `json:"region"`
			} `json:"options"`
			GoOptions struct {
				Options map[string]string `json:"options"`
			} `json:"beam:option:go_options:v1"`
		} `json:"sdkPipelineOptions"`
		WorkerPools []struct {
			MachineType         string `json:"machineType"`
			AutoscalingSettings struct {
				MaxNumWorkers int64 `json:"maxNumWorkers"`
			} `json:"autoscalingSettings"`
			Packages []struct {
				Name     string `json:"name"`
				Location string `json:"location"`
			} `json:"packages"`
			WorkerHarnessContainerImage string `json:"workerHarnessContainerImage"`
		} `json:"workerPools"`
	} `json:"environment"`
}

// TestREADMEDataflowDryRun runs README.md's Dataflow command with
// --dry_run: the SDK translates the pipeline into the Dataflow job as it
// does before submitting it (dataflow.Execute, dataflowlib.Translate),
// without staging or submitting anything. A flag of the command that no
// longer parses, a --worker_binary that is not the one the README builds,
// or a job that is not the one the flags say fails it.
func TestREADMEDataflowDryRun(t *testing.T) {
	args := readmeCommand(t, "./urix-beam --runner=dataflow")
	dir := t.TempDir()
	worker := flagValue(t, args, "worker_binary")
	if want := builtWorker(t); worker != want {
		t.Errorf("the Dataflow command gives --worker_binary=%s, the README builds %s", worker, want)
	}
	writeELF(t, filepath.Join(dir, worker), elf.EM_X86_64, false)

	out, err := urixBeam(t, dir, append(args, "--dry_run")...)
	if err != nil {
		t.Fatalf("urix-beam %s --dry_run: %v\n%s", strings.Join(args, " "), err, out)
	}
	var job dataflowJob
	if err := json.Unmarshal([]byte(loggedMsg(t, out, "{")), &job); err != nil {
		t.Fatalf("the printed job: %v", err)
	}
	env := job.Environment
	for _, c := range []struct{ what, got, want string }{
		{"project", job.ProjectID, flagValue(t, args, "project")},
		{"job type", job.Type, "JOB_TYPE_BATCH"},
		{"region", env.SdkPipelineOptions.Options.Region, flagValue(t, args, "region")},
		{"temp location", env.TempStoragePrefix, flagValue(t, args, "temp_location")},
		{"--input", env.SdkPipelineOptions.GoOptions.Options["input"], flagValue(t, args, "input")},
		{"--output", env.SdkPipelineOptions.GoOptions.Options["output"], flagValue(t, args, "output")},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.what, c.got, c.want)
		}
	}
	if len(env.WorkerPools) != 1 {
		t.Fatalf("%d worker pools, want 1", len(env.WorkerPools))
	}
	pool := env.WorkerPools[0]
	if want := flagValue(t, args, "worker_machine_type"); pool.MachineType != want {
		t.Errorf("machine type %q, want %q", pool.MachineType, want)
	}
	if got, want := strconv.FormatInt(pool.AutoscalingSettings.MaxNumWorkers, 10), flagValue(t, args, "max_num_workers"); got != want {
		t.Errorf("max workers %s, want %s", got, want)
	}
	if want := "gcr.io/cloud-dataflow/v1beta3/beam_go_sdk:" + core.SdkVersion; pool.WorkerHarnessContainerImage != want {
		t.Errorf("container %q, want %q", pool.WorkerHarnessContainerImage, want)
	}
	staging := flagValue(t, args, "staging_location") + "/"
	if len(pool.Packages) != 1 || pool.Packages[0].Name != "worker" || !strings.HasPrefix(pool.Packages[0].Location, staging) {
		t.Errorf("packages %+v, want the worker under %s", pool.Packages, staging)
	}
	// The pipeline itself goes to Dataflow as the model (staged beside
	// the worker): the job's steps are empty; the model is logged.
	model := loggedMsg(t, out, "components:")
	for _, step := range []string{`unique_name:"urix/Impulse"`, `unique_name:"urix/Write results"`} {
		if !strings.Contains(model, step) {
			t.Errorf("the model has no %s", step)
		}
	}
}

// TestREADMEVersions: the images and the build command the README gives
// are those of the Beam SDK in go.mod, so that they move with it.
func TestREADMEVersions(t *testing.T) {
	text := readme(t)
	images := regexp.MustCompile(`apache/beam_[a-z0-9_.]+:([0-9]+(?:\.[0-9A-Za-z-]+)*)`).FindAllStringSubmatch(text, -1)
	if len(images) < 3 {
		t.Fatalf("%d Beam images in README.md, want the job servers and the SDK's", len(images))
	}
	for _, m := range images {
		if m[1] != core.SdkVersion {
			t.Errorf("README.md: %s: want the tag %s (the SDK in go.mod)", m[0], core.SdkVersion)
		}
	}
	if !strings.Contains(text, "    "+buildWorker+"\n") {
		t.Errorf("README.md does not build the worker binary as urix-beam says: %s", buildWorker)
	}
}

func TestCheckWorkerBinary(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "text")
	if err := os.WriteFile(text, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	static, dynamic, arm, x86 := filepath.Join(dir, "static"), filepath.Join(dir, "dynamic"), filepath.Join(dir, "arm64"), filepath.Join(dir, "386")
	writeELF(t, static, elf.EM_X86_64, false)
	writeELF(t, dynamic, elf.EM_X86_64, true)
	writeELF(t, arm, elf.EM_AARCH64, false)
	writeELF(t, x86, elf.EM_386, false)
	for _, c := range []struct {
		path, err string
	}{
		{static, ""},
		{arm, ""},
		{dynamic, "dynamically linked"},
		{x86, "not amd64 or arm64"},
		{text, "not a Linux binary"},
		{filepath.Join(dir, "none"), "no such file"},
	} {
		err := checkWorkerBinary(c.path)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", filepath.Base(c.path), err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want %q", filepath.Base(c.path), err, c.err)
		}
	}
}

func TestShipsWorker(t *testing.T) {
	for _, c := range []struct {
		runner, env string
		ships       bool
	}{
		{"dataflow", "", true},
		{"DataflowRunner", "", true},
		{"flink", "DOCKER", true},
		{"spark", "", true},
		{"universal", "EXTERNAL", true},
		{"universal", "LOOPBACK", false},
		{"flink", "loopback", false},
		{"", "", false},
		{"prism", "", false},
		{"direct", "", false},
	} {
		if got := shipsWorker(c.runner, c.env); got != c.ships {
			t.Errorf("shipsWorker(%q, %q) = %v", c.runner, c.env, got)
		}
	}
}

// fakeJobServer is a portable job server (Flink's, Spark's) up to the
// submission: it takes the pipeline (Prepare), fetches the worker binary
// of its environment from urix-beam as a job server does
// (ReverseArtifactRetrievalService: the file, by its path, is read and
// sent by the launching urix-beam), and refuses to run the job.
type fakeJobServer struct {
	jobpb.UnimplementedJobServiceServer
	jobpb.UnimplementedArtifactStagingServiceServer
	endpoint string
	accept   bool // run the jobs submitted (they end at once)

	mu       sync.Mutex
	pipeline *pipepb.Pipeline
	staged   map[string][]byte // the artifacts fetched, by path
}

func (f *fakeJobServer) Prepare(_ context.Context, req *jobpb.PrepareJobRequest) (*jobpb.PrepareJobResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pipeline = req.GetPipeline()
	return &jobpb.PrepareJobResponse{
		PreparationId:           "urix-job",
		ArtifactStagingEndpoint: &pipepb.ApiServiceDescriptor{Url: f.endpoint},
		StagingSessionToken:     "urix-token",
	}, nil
}

func (f *fakeJobServer) ReverseArtifactRetrievalService(stream jobpb.ArtifactStagingService_ReverseArtifactRetrievalServiceServer) error {
	if _, err := stream.Recv(); err != nil { // the staging token
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, env := range f.pipeline.GetComponents().GetEnvironments() {
		for _, dep := range env.GetDependencies() {
			var file pipepb.ArtifactFilePayload
			if err := proto.Unmarshal(dep.GetTypePayload(), &file); err != nil {
				return err
			}
			req := &jobpb.ArtifactRequestWrapper{Request: &jobpb.ArtifactRequestWrapper_GetArtifact{GetArtifact: &jobpb.GetArtifactRequest{Artifact: dep}}}
			if err := stream.Send(req); err != nil {
				return err
			}
			var data []byte
			for {
				resp, err := stream.Recv()
				if err != nil {
					return err
				}
				data = append(data, resp.GetGetArtifactResponse().GetData()...)
				if resp.GetIsLast() {
					break
				}
			}
			f.staged[file.GetPath()] = data
		}
	}
	return nil
}

func (f *fakeJobServer) Run(context.Context, *jobpb.RunJobRequest) (*jobpb.RunJobResponse, error) {
	if f.accept {
		return &jobpb.RunJobResponse{JobId: "urix-job-1"}, nil
	}
	return nil, errors.New("the fake job server runs no job")
}

// startFakeJobServer starts a fakeJobServer on a port of this machine.
func startFakeJobServer(t *testing.T) *fakeJobServer {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fake := &fakeJobServer{endpoint: lis.Addr().String(), staged: map[string][]byte{}}
	srv := grpc.NewServer()
	jobpb.RegisterJobServiceServer(srv, fake)
	jobpb.RegisterArtifactStagingServiceServer(srv, fake)
	go srv.Serve(lis)
	t.Cleanup(srv.Stop)
	return fake
}

// withEndpoint is args with --endpoint's value made endpoint.
func withEndpoint(args []string, endpoint string) []string {
	for i, a := range args {
		if strings.HasPrefix(a, "--endpoint=") {
			args[i] = "--endpoint=" + endpoint
		}
	}
	return args
}

// TestAsync: with --async, urix-beam returns once the job is submitted
// (its result has no metrics to read then).
func TestAsync(t *testing.T) {
	fake := startFakeJobServer(t)
	fake.accept = true
	args := withEndpoint(readmeCommand(t, "./urix-beam --runner=flink"), fake.endpoint)
	dir := t.TempDir()
	writeELF(t, filepath.Join(dir, flagValue(t, args, "worker_binary")), elf.EM_X86_64, false)
	out, err := urixBeam(t, dir, append(args, "--async")...)
	if err != nil || !strings.Contains(out, "urix-beam: submitted job\n") {
		t.Fatalf("urix-beam %s --async: %v, want the job submitted:\n%s", strings.Join(args, " "), err, out)
	}
}

// TestREADMEPortableStaging runs README.md's Flink and Spark commands
// against a fake job server (--endpoint is its address): urix-beam must
// get as far as submitting the job, having sent the job server the
// README's --worker_binary as the worker of a Docker environment of the
// README's image, byte for byte (Beam's Go SDK would otherwise run
// `go build` on urix-beam's sources).
func TestREADMEPortableStaging(t *testing.T) {
	for _, runner := range []string{"flink", "spark"} {
		t.Run(runner, func(t *testing.T) {
			fake := startFakeJobServer(t)
			args := withEndpoint(readmeCommand(t, "./urix-beam --runner="+runner), fake.endpoint)
			dir := t.TempDir()
			worker := flagValue(t, args, "worker_binary")
			writeELF(t, filepath.Join(dir, worker), elf.EM_X86_64, false)
			want, err := os.ReadFile(filepath.Join(dir, worker))
			if err != nil {
				t.Fatal(err)
			}
			out, err := urixBeam(t, dir, args...)
			if err == nil || !strings.Contains(out, "the fake job server runs no job") {
				t.Fatalf("urix-beam %s: %v, want the job refused at its submission:\n%s", strings.Join(args, " "), err, out)
			}

			fake.mu.Lock()
			defer fake.mu.Unlock()
			envs := fake.pipeline.GetComponents().GetEnvironments()
			if len(envs) != 1 {
				t.Fatalf("%d environments, want 1", len(envs))
			}
			for _, env := range envs {
				var docker pipepb.DockerPayload
				if err := proto.Unmarshal(env.GetPayload(), &docker); err != nil {
					t.Fatal(err)
				}
				if got, want := docker.GetContainerImage(), flagValue(t, args, "environment_config"); env.GetUrn() != "beam:env:docker:v1" || got != want {
					t.Errorf("environment %s %q, want a Docker one of %q", env.GetUrn(), got, want)
				}
			}
			if len(fake.staged) != 1 {
				t.Fatalf("%d artifacts staged, want the worker binary", len(fake.staged))
			}
			for path, data := range fake.staged {
				if filepath.Base(path) != worker || !bytes.Equal(data, want) {
					t.Errorf("staged %s (%d bytes), want %s (%d bytes)", path, len(data), worker, len(want))
				}
			}
		})
	}
}

// TestRangeBytes: --range_bytes is Config's, 0 or less every file whole
// (-1); by default 64 MiB but on the runners that read a stage's
// elements one after the other on this machine, where files are read
// whole.
func TestRangeBytes(t *testing.T) {
	for _, c := range []struct {
		n      int64
		given  bool
		runner string
		want   int64
	}{
		{pipeline.DefaultRangeBytes, false, "", -1},
		{pipeline.DefaultRangeBytes, false, "prism", -1},
		{pipeline.DefaultRangeBytes, false, "direct", -1},
		{pipeline.DefaultRangeBytes, false, "dataflow", pipeline.DefaultRangeBytes},
		{pipeline.DefaultRangeBytes, false, "flink", pipeline.DefaultRangeBytes},
		{1 << 20, true, "prism", 1 << 20},
		{1 << 20, true, "spark", 1 << 20},
		{0, true, "dataflow", -1},
		{-5, true, "", -1},
	} {
		if got := rangeBytes(c.n, c.given, c.runner); got != c.want {
			t.Errorf("rangeBytes(%d, %v, %q) = %d, want %d", c.n, c.given, c.runner, got, c.want)
		}
	}
}
