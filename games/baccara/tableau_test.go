package baccara_test

import (
	"testing"

	"github.com/coupwatch/coupwatch/games/baccara"
	"github.com/coupwatch/coupwatch/journal"
)

func card(t *testing.T, s string) journal.Card {
	t.Helper()
	c, err := journal.ParseCard(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestPointAndValue(t *testing.T) {
	tests := []struct {
		cards []string
		want  int
	}{
		{[]string{"AS", "9H"}, 0},
		{[]string{"KD", "QC"}, 0},
		{[]string{"TS", "7H"}, 7},
		{[]string{"6H", "7D"}, 3},
		{[]string{"9C", "9S", "9D"}, 7},
		{[]string{"4S", "JH", "5C"}, 9},
		{[]string{"XX", "5C"}, -1},
	}
	for _, tc := range tests {
		var cs []journal.Card
		for _, s := range tc.cards {
			cs = append(cs, card(t, s))
		}
		if got := baccara.Point(cs...); got != tc.want {
			t.Errorf("Point(%v) = %d, want %d", tc.cards, got, tc.want)
		}
	}
}

// bancoTable is the regulation's banco table, AM 88-384 art. 13.6 (seed 001 L845-L850): rows
// banco 3 to 7, columns punto's third card 0 to 9 then «Refus» (punto stood).
var bancoTable = map[int]string{
	3: "TTTTTTTTRTT",
	4: "RRTTTTTTRRT",
	5: "RRRRTTTTRRT",
	6: "RRRRRRTTRRR",
	7: "RRRRRRRRRRR",
}

func column(i int) int {
	if i == 10 {
		return baccara.NoThird
	}
	return i
}

func decision(r byte) baccara.Decision {
	switch r {
	case 'T':
		return baccara.Draw
	case 'R':
		return baccara.Stand
	}
	return baccara.Option
}

func TestPuntoBancoTables(t *testing.T) {
	for p := 0; p <= 9; p++ {
		want := baccara.Draw // L835: 0-5 draw
		switch {
		case p >= 8:
			want = baccara.Natural
		case p >= 6:
			want = baccara.Stand
		}
		if got := baccara.PuntoRule(p); got != want {
			t.Errorf("PuntoRule(%d) = %v, want %v", p, got, want)
		}
	}
	for b := 0; b <= 2; b++ {
		for i := 0; i <= 10; i++ {
			if got := baccara.BancoRule(b, column(i)); got != baccara.Draw {
				t.Errorf("BancoRule(%d, %d) = %v, want draw (L841)", b, column(i), got)
			}
		}
	}
	for b, row := range bancoTable {
		for i := 0; i <= 10; i++ {
			if got, want := baccara.BancoRule(b, column(i)), decision(row[i]); got != want {
				t.Errorf("BancoRule(%d, %d) = %v, want %v", b, column(i), got, want)
			}
		}
	}
	for b := 8; b <= 9; b++ {
		if got := baccara.BancoRule(b, baccara.NoThird); got != baccara.Natural {
			t.Errorf("BancoRule(%d) = %v, want natural", b, got)
		}
	}
}

func TestPonteRule(t *testing.T) {
	want := []baccara.Decision{
		baccara.Draw, baccara.Draw, baccara.Draw, baccara.Draw, baccara.Draw, // 0-4 (L748)
		baccara.Option,               // 5 (L747)
		baccara.Stand, baccara.Stand, // 6-7 (L746)
		baccara.Natural, baccara.Natural, // 8-9 (L745)
	}
	for p, w := range want {
		if got := baccara.PonteRule(p); got != w {
			t.Errorf("PonteRule(%d) = %v, want %v", p, got, w)
		}
	}
}

// conventionalTable is the conventional chemin de fer banker's table: rows banker 0 to 7,
// columns the ponte's third card 0 to 9 then the ponte standing; O = the banker's option.
var conventionalTable = []string{
	"TTTTTTTTTTT",
	"TTTTTTTTTTT",
	"TTTTTTTTTTT",
	"TTTTTTTTROT",
	"RRTTTTTTRRT",
	"RRRROTTTRRT",
	"RRRRRRTTRRR",
	"RRRRRRRRRRR",
}

func TestBankerRule(t *testing.T) {
	for b, row := range conventionalTable {
		for i := 0; i <= 10; i++ {
			if got, want := baccara.BankerRule(baccara.Conventional, b, column(i)), decision(row[i]); got != want {
				t.Errorf("conventional BankerRule(%d, %d) = %v, want %v", b, column(i), got, want)
			}
			if got, want := baccara.BankerRule(baccara.Strict, b, column(i)), baccara.BancoRule(b, column(i)); got != want {
				t.Errorf("strict BankerRule(%d, %d) = %v, want %v", b, column(i), got, want)
			}
			if got := baccara.BankerRule(baccara.Free, b, column(i)); got != baccara.Option {
				t.Errorf("free BankerRule(%d, %d) = %v, want option", b, column(i), got)
			}
		}
	}
	for _, tb := range []baccara.BankerTable{baccara.Conventional, baccara.Strict, baccara.Free} {
		if got := baccara.BankerRule(tb, 8, 3); got != baccara.Natural {
			t.Errorf("BankerRule(%v, 8, 3) = %v, want natural", tb, got)
		}
	}
}
