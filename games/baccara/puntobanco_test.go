package baccara_test

import (
	"strings"
	"testing"
)

func TestPuntoBanco(t *testing.T) {
	checkCases(t, []engineCase{
		{
			name: "punto 2000", game: "punto_banco", rules: `{"punto_2000": true}`,
			script: `
coup 1
bet banco P1 1000
bet punto P2 1000
bet tie P3 500
nmb
cards punto:2C banco:3D punto:3H banco:3S punto:KH
collect punto P2
collect tie P3
pay banco P1 500
end
coup 2
bet banco P1 1000
nmb
cards punto:6C banco:4D punto:KD banco:3C
pay banco P1 950
end`,
			settle: []string{"1 banco P1 500", "1 punto P2 -1000", "1 tie P3 -500", "2 banco P1 1000"},
			found:  []string{"2 punto_banco.payout banco P1"},
		},
		{
			name: "dragon bonus and pairs", game: "punto_banco",
			script: `
coup 1
bet dragon:punto D1 1000
bet dragon:banco D2 1000
bet pair:punto Q1 500
bet pair:banco Q2 500
nmb
cards punto:4C banco:7H punto:5D banco:KS
end
coup 2
bet dragon:punto D1 1000
bet dragon:banco D2 1000
bet tie T1 100
nmb
cards punto:8C banco:3H punto:KD banco:5S
end
coup 3
bet dragon:punto D1 1000
bet pair:both Q3 1000
nmb
cards punto:2C banco:KC punto:2D banco:QD punto:5H banco:TS
end
coup 4
bet dragon:punto D1 1000
nmb
cards punto:AC banco:3C punto:2H banco:KH punto:4D banco:TD
end
coup 5
bet dragon:punto D1 1000
nmb
cards punto:AC banco:4C punto:2H banco:KH punto:4D banco:KD
end
coup 6
bet dragon:punto D1 1000
bet pair:banco Q2 500
nmb
cards punto:7C banco:3S punto:KD banco:KC banco:TH
end
coup 7
bet dragon:punto D1 1000
nmb
cards punto:6C banco:2H punto:KD banco:4S
end
coup 8
bet pair:both Q3 1000
bet pair:banco Q2 1000
nmb
cards punto:4C banco:7H punto:4D banco:7S
end`,
			settle: []string{
				"1 dragon:punto D1 1000", "1 dragon:banco D2 -1000", "1 pair:punto Q1 -500", "1 pair:banco Q2 -500",
				"2 dragon:punto D1 0", "2 dragon:banco D2 0", "2 tie T1 800",
				"3 dragon:punto D1 20000", "3 pair:both Q3 5000",
				"4 dragon:punto D1 1000",
				"5 dragon:punto D1 -1000",
				"6 dragon:punto D1 1000", "6 pair:banco Q2 -500",
				"7 dragon:punto D1 -1000",
				"8 pair:both Q3 11000", "8 pair:banco Q2 11000",
			},
		},
		{
			name: "side bet options", game: "punto_banco",
			rules: `{"dragon_two_card": "lose", "dragon_non_natural_tie": "push", "pairs_match": "value", "pair_both": "half_paid", "side_bets_pay": "for_one"}`,
			script: `
coup 1
bet dragon:punto D1 1000
nmb
cards punto:7C banco:3S punto:KD banco:KC banco:TH
end
coup 2
bet dragon:punto D1 1000
nmb
cards punto:6C banco:2H punto:KD banco:4S
end
coup 3
bet pair:punto Q1 1000
bet pair:both Q3 1000
bet dragon:banco D2 1000
bet dragon:punto D1 1000
nmb
cards punto:KC banco:9H punto:TD banco:KS
end
coup 4
bet dragon:punto D1 1000
nmb
cards punto:2C banco:KC punto:2D banco:QD punto:5H banco:TS
end`,
			settle: []string{
				"1 dragon:punto D1 -1000",
				"2 dragon:punto D1 0",
				"3 pair:punto Q1 10000", "3 pair:both Q3 5000", "3 dragon:banco D2 1000", "3 dragon:punto D1 -1000",
				"4 dragon:punto D1 19000",
			},
		},
		{
			name: "burns", game: "punto_banco",
			script: `
cards burn:7H burn:XX burn:XX burn:XX burn:XX burn:XX burn:XX burn:XX
coup 1
bet punto P1 1000
nmb
cards punto:9C banco:2D punto:KD banco:KH
end
coup 2
cards burn:KH burn:XX burn:XX burn:XX burn:XX burn:XX
bet punto P1 1000
nmb
cards punto:9C banco:2D punto:KD banco:KH
end`,
			settle: []string{"1 punto P1 1000", "2 punto P1 1000"},
			found:  []string{"2 punto_banco.burn - -"},
		},
		{
			name: "burn counts the exposed card", game: "punto_banco", rules: `{"burn_exposed": "included"}`,
			script: `
coup 1
cards burn:5S burn:XX burn:XX burn:XX burn:XX
bet punto P1 1000
nmb
cards punto:9C banco:2D punto:KD banco:KH
end
coup 2
cards burn:AS burn:XX
bet punto P1 1000
nmb
cards punto:9C banco:2D punto:KD banco:KH
end`,
			settle: []string{"1 punto P1 1000", "2 punto P1 1000"},
			found:  []string{"2 punto_banco.burn - -"},
		},
		{
			name: "burn after the exposed card", game: "punto_banco", rules: `{"burn_exposed": "excluded", "variant": "punto_2000"}`,
			script: `
coup 1
cards burn:5S burn:XX burn:XX burn:XX burn:XX
bet banco P1 1000
nmb
cards punto:2C banco:9D punto:KD banco:KH
end
coup 2
cards burn:5S burn:XX burn:XX burn:XX burn:XX burn:XX
bet banco P1 1000
nmb
cards punto:2C banco:9D punto:KD banco:KH
end`,
			settle: []string{"1 banco P1 1000", "2 banco P1 1000"},
			found:  []string{"1 punto_banco.burn - -"},
		},
		{
			name: "no coup after the stop card", game: "punto_banco",
			script: `
coup 1
bet punto P1 1000
nmb
cards punto:9C banco:2D stop:XX punto:KD banco:KH
end
coup 2
bet punto P1 1000
nmb
cards punto:9D banco:2H punto:QD banco:QH
end
coup 3
cards burn:AS burn:XX
bet punto P1 1000
nmb
cards punto:9S banco:2S punto:JD banco:JH
end`,
			settle: []string{"1 punto P1 1000", "2 punto P1 1000", "3 punto P1 1000"},
			found:  []string{"2 punto_banco.last_coup - -"},
		},
		{
			name: "foreign card", game: "punto_banco", rules: `{"decks": 1}`,
			script: `
coup 1
bet tie P1 100
nmb
cards punto:AS banco:AS punto:8C banco:8D
end`,
			settle: []string{"1 tie P1 800"},
			found:  []string{"1 punto_banco.deck_composition - -"},
		},
		{
			name: "payment order", game: "punto_banco",
			script: `
coup 1
bet punto P1 1000
bet banco P2 1000
nmb
cards punto:9C banco:2D punto:KD banco:KH
pay punto P1 1000
collect banco P2
end
coup 2
bet punto P1 1000
bet banco P2 1000
bet dragon:punto D1 1000
nmb
cards punto:9C banco:2D punto:KD banco:KH
pay dragon:punto D1 1000
collect banco P2
pay punto P1 1000
end`,
			settle: []string{"1 punto P1 1000", "1 banco P2 -1000", "2 punto P1 1000", "2 banco P2 -1000", "2 dragon:punto D1 1000"},
			found:  []string{"1 punto_banco.payment_order banco P2", "2 punto_banco.payment_order dragon:punto D1"},
		},
		{
			name: "wrong draws and dealing order", game: "punto_banco",
			script: `
coup 1
bet punto P1 1000
bet banco P2 1000
nmb
cards punto:XX banco:XX punto:XX banco:XX
reveal punto 2C 3D
reveal banco KC 7S
end
coup 2
bet punto P1 1000
bet banco P2 1000
nmb
cards punto:8C banco:3C punto:KD banco:KH banco:5D
end
coup 3
bet punto P1 1000
nmb
cards punto:AC banco:5C punto:KD banco:KH banco:6D punto:4S
pay punto P1 1000
end
coup 4
bet banco P2 1000
nmb
cards banco:9C punto:2D banco:KS punto:3H
pay banco P2 950
end
coup 5
bet punto P1 1000
nmb
cards punto:6C banco:6D punto:KD banco:KH punto:5C
end
coup 6
bet banco P2 1000
nmb
cards punto:8C banco:2D punto:KD banco:KH punto:3S banco:4S
end`,
			settle: []string{
				"1 punto P1 0", "1 banco P2 0",
				"2 punto P1 0", "2 banco P2 0",
				// Coups 2 and 5 are void: the stakes of a player who bets nothing in the coup
				// dealt again stand on it (P2's banco in coup 3, P1's punto in coup 6).
				"3 punto P1 1000", "3 banco P2 -1000",
				"4 banco P2 950",
				"5 punto P1 0",
				"6 banco P2 0", "6 punto P1 0",
			},
			found: []string{
				"1 punto_banco.punto_third_card punto -",
				"2 punto_banco.banco_third_card banco -",
				"3 punto_banco.dealing_order - -",
				"4 punto_banco.dealing_order - -",
				"5 punto_banco.punto_third_card punto -",
				"6 punto_banco.punto_third_card punto -",
			},
		},
		{
			name: "wrong draw settled as dealt", game: "punto_banco", rules: `{"wrong_draw": "as_dealt"}`,
			script: `
coup 1
bet punto P1 1000
bet banco P2 1000
nmb
cards punto:2C banco:KC punto:3D banco:7S
end`,
			settle: []string{"1 punto P1 -1000", "1 banco P2 950"},
			found:  []string{"1 punto_banco.punto_third_card punto -"},
		},
		{
			name: "limits", game: "punto_banco", limits: `{"min": 500, "max": 5000}`,
			script: `
coup 1
bet punto P1 100
bet banco P2 6000
bet tie P3 500
nmb
bet tie P4 600
cards punto:9C banco:2D punto:KD banco:KH
end`,
			settle: []string{"1 punto P1 100", "1 banco P2 -6000", "1 tie P3 -500", "1 tie P4 -600"},
			found:  []string{"1 punto_banco.bet_limit punto P1", "1 punto_banco.bet_limit banco P2", "1 punto_banco.late_bet tie P4"},
		},
		{
			// One breach, one finding: a late stake's amount is not checked again against the limits.
			name: "a late stake over the maximum is the late bet only", game: "punto_banco", limits: `{"min": 500, "max": 5000}`,
			script: `
coup 1
bet punto P1 1000
nmb
bet banco P2 6000
cards punto:9C banco:2D punto:KD banco:KH
end`,
			settle: []string{"1 punto P1 1000", "1 banco P2 -6000"},
			found:  []string{"1 punto_banco.late_bet banco P2"},
		},
	})
}

func TestInvalidJournals(t *testing.T) {
	tests := []struct {
		name, game, rules, script, want string
	}{
		{"spot", "punto_banco", "", "coup 1\nbet box:1 P1 100", "spot \"box:1\" cannot exist at punto banco"},
		{"place", "punto_banco", "", "coup 1\ncards left:AS", "card place \"left\" does not exist at punto banco"},
		{"option", "chemin_de_fer", `{"punto_2000": true}`, "coup 1", "rules.punto_2000: unknown option"},
		{"option value", "banque_a_tout_va", `{"banker_table": "loose"}`, "coup 1", "rules.banker_table: must be one of"},
		{"spot chemin", "chemin_de_fer", "", "coup 1\nbet punto P1 100", "cannot exist at chemin de fer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := run(t, script(t, tc.game, tc.rules, "", tc.script))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
