package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/net/html"
)

// web_fetch's bounds, as NetClaw's WebFetchTool has them
// (src/Netclaw.Actors/Tools/WebFetchTool.cs @590d2ebb).
const (
	fetchPreviewLines = 10
	// MaxFetchBytes caps the bytes web_fetch reads of a response.
	MaxFetchBytes = 5 << 20
	// FetchTimeout bounds one fetch.
	FetchTimeout = 60 * time.Second
)

// Web runs the web tools of a trial once approved: web_fetch for real,
// saving the page in the session folder as the runtime does; web_search
// only with a Search function (agentdesk has no search backend of its
// own). A nil *Web answers that the trial has no web access.
type Web struct {
	// Client sends the requests (http.DefaultClient when nil).
	Client *http.Client
	// Search, when set, answers web_search.
	Search func(ctx context.Context, query string, max int) ([]SearchHit, error)
	// Now stamps saved file names (time.Now when nil).
	Now func() time.Time
}

// SearchHit is one web_search result.
type SearchHit struct{ Title, URL, Snippet string }

// fetch is web_fetch.
func (wb *Web) fetch(ctx context.Context, ws *Workspace, a args) Result {
	raw, _, _ := a.str("Url")
	if strings.TrimSpace(raw) == "" {
		return Errorf("Error: 'url' parameter is required.")
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return Errorf("Error: Invalid URL. Must be an absolute HTTP or HTTPS URL.")
	}
	if wb == nil {
		return Result{Text: StubNote + " web_fetch has no web access in this trial: nothing was fetched. Mock it in a suite (mocks:) to test this path.", Label: LabelStubbed}
	}
	format, _, _ := a.str("Format")
	content, ctype, failed := wb.get(ctx, u)
	if failed != nil {
		return *failed
	}
	pg := page{title: u.Host, saved: content, ext: ".txt", preview: content}
	if strings.Contains(strings.ToLower(ctype), "html") {
		pg.fromHTML(content, format)
	}
	if strings.TrimSpace(pg.saved) == "" {
		return Result{Text: fmt.Sprintf("Fetched %s but the page contained no extractable content.", raw)}
	}
	shown := "(not kept: this trial has no session folder)"
	if ws != nil && ws.session != nil {
		name := ws.sessionFile(fetchName(u, wb.now(), pg.ext))
		if err := ws.session.WriteFile(name, []byte(pg.saved)); err != nil {
			return Errorf("Error: Failed to save the page: %v", err)
		}
		shown = place{ws.session, name}.show()
	}
	return Result{Text: fetchSummary(u.String(), pg.title, shown, len([]rune(pg.saved)), strings.Count(pg.saved, "\n")+1, pg.preview)}
}

// get fetches u, as the runtime does (a browser's User-Agent, within
// FetchTimeout, at most MaxFetchBytes), and returns its text (invalid
// UTF-8 replaced) and content type, or the error result.
func (wb *Web) get(ctx context.Context, u *url.URL) (content, ctype string, failed *Result) {
	fail := func(r Result) (string, string, *Result) { return "", "", &r }
	client := wb.Client
	if client == nil {
		client = http.DefaultClient
	}
	ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fail(Errorf("Error: Failed to fetch URL: %v", err))
	}
	req.Header.Set("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36")
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return fail(Errorf("Error: Request timed out."))
		}
		return fail(Errorf("Error: Failed to fetch URL: %v", err))
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fail(Errorf("Error: Failed to fetch URL: Response status code does not indicate success: %d (%s).", resp.StatusCode, strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)+" ")))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxFetchBytes))
	if err != nil {
		return fail(Errorf("Error: Failed to fetch URL: %v", err))
	}
	return strings.ToValidUTF8(string(body), "\uFFFD"), resp.Header.Get("Content-Type"), nil
}

// page is what web_fetch keeps of a fetched page and shows of it.
type page struct {
	// title is the page's title, else the host.
	title string
	// saved is what is kept in the session folder, with the file
	// extension ext; preview is what the result shows of it.
	saved, ext, preview string
}

// fromHTML reads an HTML page: its title, and in format "text" its text,
// else its sanitized HTML with a summary. A page that does not parse
// stays as it was.
func (pg *page) fromHTML(content, format string) {
	doc, err := html.Parse(strings.NewReader(content))
	if err != nil {
		return
	}
	if t := pageTitle(doc); t != "" {
		pg.title = t
	}
	if strings.EqualFold(format, "text") {
		pg.saved = pageText(doc)
		pg.preview = pg.saved
	} else {
		pg.saved, pg.ext = sanitizeHTML(doc), ".html"
		pg.preview = pageSummary(doc)
	}
}

func (wb *Web) now() time.Time {
	if wb.Now != nil {
		return wb.Now()
	}
	return time.Now()
}

// search is web_search.
func (wb *Web) search(ctx context.Context, a args) Result {
	q, _, _ := a.str("Query")
	if strings.TrimSpace(q) == "" {
		return Errorf("Error: 'query' parameter is required.")
	}
	max, ok, _ := a.integer("MaxResults")
	if !ok || max < 1 {
		max = 10
	}
	max = min(max, 30)
	if wb == nil || wb.Search == nil {
		return Result{Text: StubNote + " web_search has no search backend in this trial: nothing was searched. Mock it in a suite (mocks:) to test this path.", Label: LabelStubbed}
	}
	hits, err := wb.Search(ctx, q, max)
	if err != nil {
		return Errorf("Error: Search failed: %v", err)
	}
	if len(hits) == 0 {
		return Result{Text: "No results found for: " + q}
	}
	var b strings.Builder
	b.WriteString("Search results for: " + q + "\n\n")
	for i, h := range hits {
		fmt.Fprintf(&b, "%d. %s\n   URL: %s\n", i+1, h.Title, h.URL)
		if h.Snippet != "" {
			b.WriteString("   " + h.Snippet + "\n")
		}
		b.WriteString("\n")
	}
	return Result{Text: strings.TrimRight(b.String(), " \t\r\n")}
}

// fetchSummary is web_fetch's answer.
func fetchSummary(u, title, path string, chars, lines int, preview string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Fetched: %s\nTitle: %s\nSaved to: %s (%s chars, %s lines)\n\nPreview (first lines):\n", u, title, path, thousands(chars), thousands(lines))
	ls := strings.Split(preview, "\n")
	for i := 0; i < len(ls) && i < fetchPreviewLines; i++ {
		if l := strings.TrimRightFunc(ls[i], unicode.IsSpace); l != "" {
			b.WriteString(l + "\n")
		}
	}
	if len(ls) > fetchPreviewLines {
		fmt.Fprintf(&b, "... (%d more lines — use file_read or grep to search)\n", len(ls)-fetchPreviewLines)
	}
	return strings.TrimRightFunc(b.String(), unicode.IsSpace)
}

// thousands formats n with comma group separators, as .NET's N0 does.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// fetchName is the saved file's name: host and path, letters, digits and
// '-' kept and the rest '_', trimmed of '_', at most 60 characters, then
// the Unix time and the extension.
func fetchName(u *url.URL, now time.Time, ext string) string {
	var b strings.Builder
	for _, r := range u.Host + u.EscapedPath() {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := strings.Trim(b.String(), "_")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60])
	}
	return fmt.Sprintf("%s-%d%s", s, now.Unix(), ext)
}

// pageTitle returns the text of the first <title>.
func pageTitle(n *html.Node) string {
	var t string
	walk(n, func(n *html.Node) bool {
		if n.Type == html.ElementNode && n.Data == "title" {
			t = strings.TrimSpace(innerText(n))
			return false
		}
		return true
	})
	return t
}

// sanitizeHTML renders the page without its script and style elements.
func sanitizeHTML(doc *html.Node) string {
	removeElements(doc, "script", "style")
	var b bytes.Buffer
	if err := html.Render(&b, doc); err != nil {
		return ""
	}
	return b.String()
}

// pageSummary is raw mode's preview: the meta description and up to five
// h1-h3 headings.
func pageSummary(doc *html.Node) string {
	var b strings.Builder
	walk(doc, func(n *html.Node) bool {
		if n.Type == html.ElementNode && n.Data == "meta" && attr(n, "name") == "description" && attr(n, "content") != "" {
			b.WriteString("Description: " + attr(n, "content") + "\n")
			return false
		}
		return true
	})
	shown := 0
	walk(doc, func(n *html.Node) bool {
		if shown >= 5 {
			return false
		}
		if n.Type == html.ElementNode && (n.Data == "h1" || n.Data == "h2" || n.Data == "h3") {
			if t := strings.TrimSpace(innerText(n)); t != "" {
				fmt.Fprintf(&b, "  %s: %s\n", strings.ToUpper(n.Data), t)
				shown++
			}
			return false
		}
		return true
	})
	return strings.TrimRightFunc(b.String(), unicode.IsSpace)
}

// blockElements are the elements whose text pageText puts on lines of
// its own.
var blockElements = map[string]bool{"p": true, "div": true, "br": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"li": true, "tr": true, "blockquote": true, "pre": true, "article": true, "section": true, "main": true}

// writeBlocks writes the text of n and what it holds, each text trimmed
// and followed by a space, a block element's on lines of its own.
func writeBlocks(sb *strings.Builder, n *html.Node) {
	if n.Type == html.TextNode {
		if t := strings.TrimSpace(n.Data); t != "" {
			sb.WriteString(t + " ")
		}
		return
	}
	block := n.Type == html.ElementNode && blockElements[n.Data]
	if block && sb.Len() > 0 {
		sb.WriteString("\n")
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		writeBlocks(sb, c)
	}
	if block {
		sb.WriteString("\n")
	}
}

// pageText is text mode: the text of the page without scripts, styles,
// navigation, headers and footers, one block a line, runs of blank lines
// made one.
func pageText(doc *html.Node) string {
	removeElements(doc, "script", "style", "noscript", "svg", "nav", "footer", "header")
	var sb strings.Builder
	writeBlocks(&sb, doc)
	var out strings.Builder
	lastEmpty := false
	for _, l := range strings.Split(sb.String(), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			if !lastEmpty {
				out.WriteString("\n")
				lastEmpty = true
			}
			continue
		}
		out.WriteString(l + "\n")
		lastEmpty = false
	}
	return strings.TrimSpace(out.String())
}

func walk(n *html.Node, fn func(*html.Node) bool) {
	if !fn(n) {
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func innerText(n *html.Node) string {
	var b strings.Builder
	walk(n, func(n *html.Node) bool {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		return true
	})
	return b.String()
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func removeElements(n *html.Node, names ...string) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode {
			for _, name := range names {
				if c.Data == name {
					n.RemoveChild(c)
					break
				}
			}
		}
		if c.Parent == n {
			removeElements(c, names...)
		}
		c = next
	}
}
