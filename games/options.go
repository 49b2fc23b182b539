package games

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Options reads the rules options of a table_open event. Engines call the typed getters with
// their documented defaults; each getter marks its key as known. After the engine is built the
// runner calls Err: a malformed value or a key no getter asked for is invalid input.
type Options struct {
	game  string
	raw   map[string]json.RawMessage
	known map[string]bool
	errs  []string
}

// ParseOptions reads a rules object (nil or empty means no options).
func ParseOptions(game string, rules []byte) (*Options, error) {
	o := &Options{game: game, known: map[string]bool{}}
	if len(bytes.TrimSpace(rules)) == 0 {
		return o, nil
	}
	dec := json.NewDecoder(bytes.NewReader(rules))
	dec.UseNumber()
	if err := dec.Decode(&o.raw); err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	return o, nil
}

func (o *Options) get(key string) (json.RawMessage, bool) {
	o.known[key] = true
	v, ok := o.raw[key]
	if ok && string(v) == "null" {
		return nil, false
	}
	return v, ok
}

func (o *Options) fail(key, format string, args ...any) {
	o.errs = append(o.errs, fmt.Sprintf("rules.%s: %s", key, fmt.Sprintf(format, args...)))
}

// Has reports whether the key is set (and marks it known).
func (o *Options) Has(key string) bool {
	_, ok := o.get(key)
	return ok
}

// Int returns an integer option in [min, max].
func (o *Options) Int(key string, def, min, max int64) int64 {
	v, ok := o.get(key)
	if !ok {
		return def
	}
	var n json.Number
	if err := json.Unmarshal(v, &n); err != nil {
		o.fail(key, "must be an integer, got %s", v)
		return def
	}
	i, err := n.Int64()
	if err != nil {
		o.fail(key, "must be an integer, got %s", v)
		return def
	}
	if i < min || i > max {
		o.fail(key, "must be between %d and %d, got %d", min, max, i)
		return def
	}
	return i
}

// Float returns a number option in [min, max].
func (o *Options) Float(key string, def, min, max float64) float64 {
	v, ok := o.get(key)
	if !ok {
		return def
	}
	var f float64
	if err := json.Unmarshal(v, &f); err != nil {
		o.fail(key, "must be a number, got %s", v)
		return def
	}
	if f < min || f > max {
		o.fail(key, "must be between %g and %g, got %g", min, max, f)
		return def
	}
	return f
}

// Bool returns a boolean option.
func (o *Options) Bool(key string, def bool) bool {
	v, ok := o.get(key)
	if !ok {
		return def
	}
	var b bool
	if err := json.Unmarshal(v, &b); err != nil {
		o.fail(key, "must be true or false, got %s", v)
		return def
	}
	return b
}

// String returns a string option.
func (o *Options) String(key, def string) string {
	v, ok := o.get(key)
	if !ok {
		return def
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		o.fail(key, "must be a string, got %s", v)
		return def
	}
	return s
}

// Enum returns a string option that must be one of allowed. Numbers are accepted and read as
// their decimal text (a pay table "2014" may be written 2014).
func (o *Options) Enum(key, def string, allowed ...string) string {
	v, ok := o.get(key)
	if !ok {
		return def
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		var n json.Number
		if json.Unmarshal(v, &n) != nil {
			o.fail(key, "must be one of %s, got %s", strings.Join(allowed, ", "), v)
			return def
		}
		s = n.String()
	}
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	o.fail(key, "must be one of %s, got %q", strings.Join(allowed, ", "), s)
	return def
}

// Object decodes an object option into dst (a pointer); unknown members are errors.
func (o *Options) Object(key string, dst any) bool {
	v, ok := o.get(key)
	if !ok {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		o.fail(key, "%v", err)
		return false
	}
	return true
}

// Raw returns the raw JSON of an option (marking it known), for options of several shapes.
func (o *Options) Raw(key string) (json.RawMessage, bool) { return o.get(key) }

// Fail records a problem with an option's value found by the engine itself.
func (o *Options) Fail(key, format string, args ...any) { o.fail(key, format, args...) }

// Err reports malformed values and keys no getter asked for, naming each key path.
func (o *Options) Err() error {
	var unknown []string
	for k := range o.raw {
		if !o.known[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	errs := append([]string(nil), o.errs...)
	if len(unknown) > 0 {
		known := make([]string, 0, len(o.known))
		for k := range o.known {
			known = append(known, k)
		}
		sort.Strings(known)
		for _, k := range unknown {
			errs = append(errs, fmt.Sprintf("rules.%s: unknown option for %s (known: %s)", k, o.game, strings.Join(known, ", ")))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(errs, "; "))
}
