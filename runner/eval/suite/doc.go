// Package suite runs agentdesk's test suites (agentdesk test): every
// sample of every case is a trial run through the runner (same model
// resolution, watchdog, tools and redaction, its own run folder tagged
// with the suite and case), checked against the case's expectations and,
// when the case has a rubric, by a judge model. Where each sample comes
// from (recorded, live, offline replay) and whether its recording is stale
// is decided by runner/evalrec; the suite files themselves are read by
// lint/suite.
//
// Run runs suites and returns their results in suite order; OnCase sees
// each case's result as soon as its samples are done, for a browser or a
// progress line. Text, JSON, JUnit and GitHub print the results.
package suite
