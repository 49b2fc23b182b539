package baccara_test

import (
	"strings"
	"testing"
)

func TestCheminDeFer(t *testing.T) {
	checkCases(t, []engineCase{
		{
			name: "draws, doubling and the hand", game: "chemin_de_fer", rules: `{"decks": 16}`,
			script: `
coup 1
bet bank B1 2000
bet banco P1 2000
nmb
cards ponte:4C banker:2C ponte:KD banker:KS ponte:2H
end
coup 2
bet bank B2 1000
bet banco P2 1000
nmb
cards ponte:6C banker:7C ponte:KD banker:KH banker:2D
end
coup 3
bet bank B2 1950
bet banco P3 1950
nmb
cards ponte:4C banker:3D ponte:KD banker:KH ponte:9S
end
coup 4
bet bank B2 1950
bet banco P4 1950
nmb
cards ponte:4C banker:7D ponte:KD banker:KS
end
coup 5
bet bank B2 4000
bet banco P5 4000
nmb
cards ponte:8C banker:6C ponte:KD banker:KH ponte:2H
end
coup 6
bet bank B2 7800
bet banco P6 7800
nmb
cards ponte:9C banker:7C ponte:KD banker:KS
end
coup 7
bet bank B2 1000
bet banco P7 1000
nmb
cards ponte:7C banker:7H ponte:KD banker:KS
end`,
			settle: []string{
				"1 bank B1 -2000", "1 banco P1 2000",
				"2 bank B2 950", "2 banco P2 -1000",
				"3 bank B2 0", "3 banco P3 0",
				"4 bank B2 1852", "4 banco P4 -1950",
				"5 bank B2 3800", "5 banco P5 -4000",
				"6 bank B2 -7800", "6 banco P6 7800",
				"7 bank B2 0", "7 banco P7 0",
			},
			found: []string{
				"1 chemin_de_fer.banker_draw - -",
				"2 chemin_de_fer.banker_draw - -",
				"4 chemin_de_fer.ponte_draw - -",
				"5 chemin_de_fer.ponte_draw - -",
				"5 chemin_de_fer.bank_doubling bank B2",
				"7 chemin_de_fer.hand_after_loss bank B2",
			},
		},
		{
			name: "cover, garage and levy", game: "chemin_de_fer", limits: `{"min": 100, "max": 100000, "spots": {"bank": {"max": 3000}}}`,
			script: `
coup 1
bet bank B1 2000
bet banco P1 1500
bet banco P2 1000
nmb
cards ponte:2C banker:9H ponte:KD banker:KS
collect banco P1
collect banco P2 500
rake 100
pay bank B1 1900
end
coup 2
bet bank B1 3000
bet banco P1 3000
nmb
cards ponte:8C banker:5H ponte:KD banker:KS
collect bank B1 3000
pay banco P1 3000
rake 150
end
coup 3
bet bank B2 1000
bet banco P3 400
nmb
cards ponte:KH banker:8D ponte:QS banker:KC
collect banco P3
rake 25
pay bank B2 380
end
coup 4
bet bank B2 780
bet banco P4 780
nmb
cards ponte:3H banker:9D ponte:QS banker:KC
collect banco P4
rake 39
pay bank B2 1400
end`,
			settle: []string{
				"1 bank B1 1900", "1 banco P1 -1500", "1 banco P2 -500",
				"2 bank B1 -3000", "2 banco P1 3000",
				"3 bank B2 380", "3 banco P3 -400",
				"4 bank B2 741", "4 banco P4 -780",
			},
			found: []string{
				"2 chemin_de_fer.levy - -",
				"3 chemin_de_fer.levy - -",
				"3 chemin_de_fer.partial_banco banco P3", // 400 against a bank of 1000 (L679)
				"4 chemin_de_fer.payout bank B2",
			},
		},
		{
			name: "stop card position", game: "chemin_de_fer", rules: `{"decks": 1}`,
			script: "cards" + strings.Repeat(" burn:XX", 44) + `
coup 1
bet bank B1 1000
bet banco P1 1000
nmb
cards ponte:9C banker:2D stop:XX ponte:KD banker:KH
end
cards` + strings.Repeat(" burn:XX", 45) + `
coup 2
bet bank B2 1000
bet banco P1 1000
nmb
cards ponte:9C banker:2D stop:XX ponte:KD banker:KH
end`,
			settle: []string{"1 bank B1 -1000", "1 banco P1 1000", "2 bank B2 -1000", "2 banco P1 1000"},
			found:  []string{"2 chemin_de_fer.stop_card_position - -"},
		},
		{
			name: "doubling the bank as staked", game: "chemin_de_fer", rules: `{"doubling_base": "stake", "garage_below_max": true}`,
			script: `
coup 1
bet bank B2 1000
bet banco P3 400
nmb
cards ponte:KH banker:8D ponte:QS banker:KC
end
coup 2
bet bank B2 1380
bet banco P4 1380
nmb
cards ponte:3H banker:9D ponte:QS banker:KC
end
coup 3
bet bank B2 2000
bet banco P4 2000
nmb
cards ponte:3H banker:9D ponte:QS banker:KC
end
coup 4
bet bank B2 6000
bet banco P4 6000
nmb
cards ponte:3H banker:9D ponte:QS banker:KC
end`,
			settle: []string{"1 bank B2 380", "1 banco P3 -400", "2 bank B2 1311", "2 banco P4 -1380",
				"3 bank B2 1900", "3 banco P4 -2000", "4 bank B2 5700", "4 banco P4 -6000"},
			found: []string{"1 chemin_de_fer.partial_banco banco P3", "4 chemin_de_fer.bank_doubling bank B2"},
		},
		{
			name: "punto banco table for the banker", game: "chemin_de_fer", rules: `{"banker_table": "punto_banco"}`,
			script: `
coup 1
bet bank B1 1000
bet banco P1 1000
nmb
cards ponte:4C banker:3D ponte:KD banker:KH ponte:9S
end`,
			settle: []string{"1 bank B1 0", "1 banco P1 0"},
			found:  []string{"1 chemin_de_fer.banker_draw - -"},
		},
	})
}

// naturalTableau: right shows a natural 8; the banker (5) draws for left (4, then 5S: 9)
// and makes 9 with 4H.
const naturalTableau = `
coup 1
bet right R1 1000
bet both C1 1000
nmb
cards right:8C left:4C banker:5D right:KD left:KH banker:KS left:5S banker:4H
end`

func TestBanqueATousVa(t *testing.T) {
	checkCases(t, []engineCase{
		{
			name: "tableaux", game: "banque_a_tout_va", rules: `{"decks": 16}`,
			script: `
coup 1
bet right R1 1000
bet left L1 1000
bet both C1 1000
nmb
cards right:4C left:3C banker:5D right:KD left:KH banker:KS right:4H left:7S
end
coup 2
bet both C1 2000
nmb
cards right:6C left:7C banker:6D right:KD left:KH banker:KS banker:9H
end
coup 3
bet right R1 1000
nmb
cards right:8C left:9C banker:2D right:KD left:KH banker:KS banker:5H
end
coup 4
bet both C1 1000
nmb
cards right:3C left:6C banker:9D right:KD left:KH banker:KS right:4D
end
coup 5
bet right R1 1000
bet left L1 1000
bet both C1 1000
nmb
cards right:7C left:5C banker:7D right:KD left:KH banker:KS
end
coup 6
bet both C1 1000
nmb
cards right:7C left:7H banker:7D right:KD left:KS banker:KC
end
coup 7
bet left L1 1000
nmb
cards right:2C left:6C banker:3D right:KD left:KH banker:KS banker:9H right:5S
end`,
			settle: []string{
				"1 right R1 1000", "1 left L1 -1000", "1 both C1 0",
				"2 both C1 2000",
				"3 right R1 1000",
				"4 both C1 -1000",
				"5 right R1 0", "5 left L1 -1000", "5 both C1 -500",
				"6 both C1 0",
				"7 left L1 1000",
			},
			found: []string{
				"2 banque_a_tout_va.banker_draw - -",
				"3 banque_a_tout_va.banker_draw - -",
				"4 banque_a_tout_va.ponte_draw right -",
				"7 banque_a_tout_va.dealing_order - -",
			},
		},
		{
			name: "à cheval win and loss", game: "banque_a_tout_va", rules: `{"a_cheval_win_lose": "lose_half"}`,
			script: `
coup 1
bet both C1 1000
nmb
cards right:4C left:3C banker:5D right:KD left:KH banker:KS right:4H left:7S
end`,
			settle: []string{"1 both C1 -500"},
		},
		{
			// Right shows a natural 8; the banker (5) draws for left and makes 9. Nobody
			// draws against a natural: right meets the banker's first two cards and wins.
			name: "natural tableau against the banker's two cards", game: "banque_a_tout_va",
			script: naturalTableau,
			settle: []string{"1 right R1 1000", "1 both C1 500"},
		},
		{
			name: "natural tableau against the banker's final point", game: "banque_a_tout_va", rules: `{"natural_tableau": "final_point"}`,
			script: naturalTableau,
			settle: []string{"1 right R1 -1000", "1 both C1 -500"},
		},
		{
			name: "last coup after the stop card", game: "banque_a_tout_va",
			script: `
coup 1
bet right R1 1000
nmb
cards right:8C left:9C stop:XX banker:2D right:KD left:KH banker:KS
end
coup 2
bet right R1 1000
nmb
cards right:8C left:9C banker:2D right:KD left:KH banker:KS
end
coup 3
bet right R1 1000
nmb
cards right:8C left:9C banker:2D right:KD left:KH banker:KS
end`,
			settle: []string{"1 right R1 1000", "2 right R1 1000", "3 right R1 1000"},
			found:  []string{"3 banque_a_tout_va.last_coup - -"},
		},
		{
			name: "last coup is the stop card's coup", game: "banque_a_tout_va", rules: `{"last_coup": "same"}`,
			script: `
coup 1
bet right R1 1000
nmb
cards right:8C left:9C stop:XX banker:2D right:KD left:KH banker:KS
end
coup 2
bet right R1 1000
nmb
cards right:8C left:9C banker:2D right:KD left:KH banker:KS
end`,
			settle: []string{"1 right R1 1000", "2 right R1 1000"},
			found:  []string{"2 banque_a_tout_va.last_coup - -"},
		},
	})
}
