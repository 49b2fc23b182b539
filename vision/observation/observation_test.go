package observation_test

import (
	"encoding/json"
	"testing"

	"github.com/coupwatch/coupwatch/vision/observation"
)

func TestParseCard(t *testing.T) {
	for _, tc := range []struct {
		in         string
		rank, suit byte
		err        bool
	}{
		{in: "QH", rank: 'Q', suit: 'H'},
		{in: "10d", rank: 'T', suit: 'D'},
		{in: " ts ", rank: 'T', suit: 'S'},
		{in: "XX", err: true},
		{in: "unknown", err: true},
		{in: "1H", err: true},
		{in: "QX", err: true},
	} {
		r, s, err := observation.ParseCard(tc.in)
		if (err != nil) != tc.err || (err == nil && (r != tc.rank || s != tc.suit)) {
			t.Errorf("ParseCard(%q) = %c %c %v", tc.in, r, s, err)
		}
	}
}

func TestObjectJSON(t *testing.T) {
	o := observation.Object{Label: "QH", Box: observation.Box{X: 1, Y: 2, W: 3, H: 4}, Conf: 0.97}
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != `{"label":"QH","box":[1,2,3,4],"conf":0.97}` {
		t.Errorf("JSON %s", got)
	}
	var back observation.Object
	if err := json.Unmarshal(b, &back); err != nil || back.Box != o.Box || back.Label != o.Label {
		t.Errorf("round trip %+v %v", back, err)
	}
}

func TestIoU(t *testing.T) {
	a := observation.Box{X: 0, Y: 0, W: 10, H: 10}
	for _, tc := range []struct {
		b    observation.Box
		want float64
	}{
		{observation.Box{X: 0, Y: 0, W: 10, H: 10}, 1},
		{observation.Box{X: 5, Y: 0, W: 10, H: 10}, 50.0 / 150},
		{observation.Box{X: 20, Y: 20, W: 5, H: 5}, 0},
		{observation.Box{}, 0},
	} {
		if got := a.IoU(tc.b); got < tc.want-1e-9 || got > tc.want+1e-9 {
			t.Errorf("IoU(%v) = %v, want %v", tc.b, got, tc.want)
		}
	}
}
