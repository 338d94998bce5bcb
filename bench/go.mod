module github.com/urix-dev/urix/bench

go 1.26.8

require github.com/urix-dev/urix v0.0.0

require github.com/andybalholm/brotli v1.3.0 // indirect

require (
	github.com/emersion/go-message v0.18.2 // indirect
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/ulikunitz/xz v0.5.17 // indirect
	golang.org/x/sys v0.49.0
)

require (
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	mvdan.cc/xurls/v2 v2.6.0
)

replace github.com/urix-dev/urix => ../
