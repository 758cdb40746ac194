package netclaw

import "testing"

// BenchmarkOperatingCoreFirstRead measures a first read: finding the marker,
// the manifest, inflating Netclaw.Configuration.dll out of the committed
// bundle, parsing its metadata and decoding the core.
func BenchmarkOperatingCoreFirstRead(b *testing.B) {
	opts := Options{Home: fixtureHome, Getenv: noEnv, LookPath: noPath}
	for b.Loop() {
		dropCache()
		in, err := Find(opts)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := in.OperatingCore(false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOperatingCoreCached measures what every later call in the
// process costs: Find (a stat and a cache hit) and the core.
func BenchmarkOperatingCoreCached(b *testing.B) {
	opts := Options{Home: fixtureHome, Getenv: noEnv, LookPath: noPath}
	if _, err := Find(opts); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		in, err := Find(opts)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := in.OperatingCore(false); err != nil {
			b.Fatal(err)
		}
	}
}
