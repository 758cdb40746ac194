package wire

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// chunkSeeds are chunks as servers send them, and chunks that must go to
// json.Unmarshal; fast says which decodeOpenAIChunk reads itself.
var chunkSeeds = []struct {
	data string
	fast bool
}{
	{`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1730000000,"model":"m","choices":[{"index":0,"delta":{"content":"Hello "},"logprobs":null,"finish_reason":null}]}`, true},
	{`{"choices":[{"delta":{"content":"","role":"assistant"},"finish_reason":null,"index":0,"logprobs":null}],"created":1730000000,"id":"chatcmpl-modeltest","model":"bench-model","object":"chat.completion.chunk"}`, true},
	{`{"choices":[{"index":0,"delta":{"reasoning_content":"think","reasoning":"think"},"finish_reason":null}]}`, true},
	{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"file_read","arguments":"{\"path\":"}}]},"finish_reason":null}]}`, true},
	{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":{"path":"a.go"}}}]}}]}`, true},
	{`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}`, true},
	{`{"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":34,"completion_tokens_details":{"reasoning_tokens":5}}}`, true},
	{`{"choices":null,"usage":{"prompt_tokens":1,"completion_tokens":2,"completion_tokens_details":null}}`, true},
	{`{"error":{"message":"overloaded","type":"server_error","code":529}}`, true},
	{`{"error":null,"choices":[null,{"index":1,"delta":null}]}`, true},
	{` { "choices" : [ { "index" : -0 , "delta" : { "content" : "caf\u00e9 \ud83d\ude00 \"q\"" } } ] } `, true},
	{`{"choices":[{"delta":{"content":"naïve – ☃"},"extra":{"deep":[1,2.5e-3,true,false,null,"x",{"k":"v"}]}}]}`, true},
	{`{"choices":[{"delta":{"tool_calls":[{"index":null,"id":null,"function":null}]}}]}`, true},
	{`{"ünknown":1,"choices":[]}`, false},
	{`{"\u0078":2,"choices":[]}`, false},
	{`{"choices":[{"x":{"ünknown":1,"\u0078":2}}]}`, true},
	// To json.Unmarshal: a key spelled otherwise, an escaped key, a
	// duplicate, a type that does not fit, a number that is not an int,
	// invalid UTF-8 in a string, invalid JSON, not an object.
	{`{"Choices":[{"delta":{"content":"x"}}]}`, false},
	{`{"choices":[{"DELTA":{"content":"x"}}]}`, false},
	{`{"\u0063hoices":[{"delta":{"content":"x"}}]}`, false},
	{`{"choices":[],"choices":[{"delta":{"content":"x"}}]}`, false},
	{`{"choices":{"delta":{}}}`, false},
	{`{"choices":[{"index":1.5}]}`, false},
	{`{"choices":[{"index":"0"}]}`, false},
	{`{"choices":[{"index":12345678901234567890}]}`, false},
	{`{"choices":[{"delta":{"tool_calls":[{"id":"a\xffb"}]}}]}`, false},
	{`{"choices":[{"delta":{"content":"x"}}]`, false},
	{`{"choices":[{"delta":{"content":"x"}}]} x`, false},
	{`{"choices":[01]}`, false},
	{`null`, false},
	{`"just text"`, false},
	{`{"choices":[{"delta":{"content":"tab	inside"}}]}`, false},
	{`{"a":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`, false},
}

// decodeOpenAIChunk reads the chunks servers send itself, and leaves the
// rest to json.Unmarshal; what it reads is what json.Unmarshal reads.
func TestDecodeOpenAIChunk(t *testing.T) {
	for _, tt := range chunkSeeds {
		var fast openAIChunk
		ok := decodeOpenAIChunk([]byte(tt.data), &fast)
		if ok != tt.fast {
			t.Errorf("%s: read without json.Unmarshal %v, want %v", tt.data, ok, tt.fast)
		}
		if ok {
			compareChunk(t, []byte(tt.data), fast)
		} else if !reflect.DeepEqual(fast, openAIChunk{}) {
			t.Errorf("%s: left %+v behind when it gave up", tt.data, fast)
		}
	}
}

// compareChunk fails when json.Unmarshal reads data otherwise than fast.
func compareChunk(t *testing.T, data []byte, fast openAIChunk) {
	t.Helper()
	var std openAIChunk
	if err := json.Unmarshal(data, &std); err != nil {
		t.Fatalf("%q: read without json.Unmarshal, which refuses it: %v", data, err)
	}
	if !reflect.DeepEqual(fast, std) {
		t.Fatalf("%q:\n read %#v\njson %#v", data, fast, std)
	}
}

func FuzzOpenAIChunk(f *testing.F) {
	for _, s := range chunkSeeds {
		f.Add([]byte(s.data))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast openAIChunk
		if decodeOpenAIChunk(data, &fast) {
			compareChunk(t, data, fast)
		}
	})
}
