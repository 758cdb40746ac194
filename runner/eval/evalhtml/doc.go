// Package evalhtml holds what the HTML reports of agentdesk test and
// agentdesk route --suite share (--format html): the page's inline style,
// the status badges and the SVG bar chart of pass rates, as html/template
// definitions, so that one self-contained page, escaped throughout and
// fetching nothing, comes out of each command.
package evalhtml
