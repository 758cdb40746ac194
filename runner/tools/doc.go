// Package tools owns the tools a trial run offers the model, behind one
// interface: Tool, a Spec (what the model is offered) and Call (what a call
// returns). Built-in tools, stubs, suite mocks and MCP tools all implement
// it, so the run loop, the recorder and a replay see every result the same
// way: a Result with its text, its error flags and a Label that says where
// it came from (real, overlay, approved, denied, stubbed, mocked).
//
// A Set holds the tools of one run and answers a call by name: a call to a
// tool that is not offered is refused, a call whose tool needs approval is
// put to the run's approval gate first (runner/approve), and the label of
// every result is set.
package tools
