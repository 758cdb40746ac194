package main

import (
	_ "charm.land/bubbles/v2/list"
	_ "charm.land/bubbles/v2/textinput"
	_ "charm.land/bubbles/v2/viewport"
	_ "charm.land/bubbletea/v2"
	_ "charm.land/glamour/v2"
	_ "charm.land/lipgloss/v2"
	_ "github.com/charmbracelet/x/ansi"
	_ "github.com/charmbracelet/x/vt"
	_ "github.com/creack/pty"
	_ "github.com/fsnotify/fsnotify"
	_ "github.com/spf13/cobra"
	_ "github.com/tiktoken-go/tokenizer"
	_ "gopkg.in/yaml.v3"
)

func main() {}
