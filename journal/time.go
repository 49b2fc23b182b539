package journal

import (
	"fmt"
	"strconv"
	"time"
)

// ParseTime reads an RFC 3339 time such as 2026-11-22T21:04:05.120Z (the fraction is optional,
// the offset is required). The result is in UTC.
func ParseTime(b []byte) (time.Time, error) {
	if t, ok := parseTimeFast(b); ok {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	if err != nil {
		return time.Time{}, fmt.Errorf("t must be an RFC 3339 time such as 2026-11-22T21:04:05.120Z, got %q", short(b))
	}
	return t.UTC(), nil
}

func digits(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// parseTimeFast handles YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM) without allocating.
func parseTimeFast(b []byte) (time.Time, bool) {
	if len(b) < 20 || b[4] != '-' || b[7] != '-' || (b[10] != 'T' && b[10] != 't') || b[13] != ':' || b[16] != ':' {
		return time.Time{}, false
	}
	year, ok1 := digits(b[0:4])
	month, ok2 := digits(b[5:7])
	day, ok3 := digits(b[8:10])
	hour, ok4 := digits(b[11:13])
	min, ok5 := digits(b[14:16])
	sec, ok6 := digits(b[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || month < 1 || month > 12 || day < 1 || hour > 23 || min > 59 || sec > 59 {
		return time.Time{}, false
	}
	if day > daysIn(month, year) {
		return time.Time{}, false
	}
	i := 19
	ns := 0
	if i < len(b) && b[i] == '.' {
		i++
		start := i
		scale := 100000000
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			if i-start < 9 {
				ns += int(b[i]-'0') * scale
				scale /= 10
			}
			i++
		}
		if i == start {
			return time.Time{}, false
		}
	}
	offset := 0
	switch {
	case i == len(b)-1 && (b[i] == 'Z' || b[i] == 'z'):
	case i == len(b)-6 && (b[i] == '+' || b[i] == '-') && b[i+3] == ':':
		oh, ok1 := digits(b[i+1 : i+3])
		om, ok2 := digits(b[i+4 : i+6])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return time.Time{}, false
		}
		offset = (oh*60 + om) * 60
		if b[i] == '-' {
			offset = -offset
		}
	default:
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, min, sec, ns, time.UTC)
	if offset != 0 {
		t = t.Add(-time.Duration(offset) * time.Second)
	}
	return t, true
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// FormatTime writes t in UTC as the journal does: milliseconds when they are exact
// (2026-11-22T21:04:05.120Z), nanoseconds otherwise.
func FormatTime(t time.Time) string {
	return string(AppendTime(nil, t))
}

// AppendTime appends FormatTime(t) to b.
func AppendTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	hour, min, sec := t.Clock()
	b = append4(b, year)
	b = append(b, '-')
	b = append2(b, int(month))
	b = append(b, '-')
	b = append2(b, day)
	b = append(b, 'T')
	b = append2(b, hour)
	b = append(b, ':')
	b = append2(b, min)
	b = append(b, ':')
	b = append2(b, sec)
	b = append(b, '.')
	ns := t.Nanosecond()
	if ns%1000000 == 0 {
		ms := ns / 1000000
		b = append(b, byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	} else {
		s := strconv.Itoa(ns + 1000000000)
		b = append(b, s[1:]...)
	}
	return append(b, 'Z')
}

func append2(b []byte, n int) []byte { return append(b, byte('0'+n/10), byte('0'+n%10)) }

func append4(b []byte, n int) []byte {
	if n < 0 || n > 9999 {
		return strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, byte('0'+n/1000), byte('0'+n/100%10), byte('0'+n/10%10), byte('0'+n%10))
}
