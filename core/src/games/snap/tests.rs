//! Snap's rules from its seed document: every worked example and I/O case, state by state.

use super::*;
use crate::games::Cycle;

fn deal(piles: &str) -> Deal {
    let v: Vec<String> = piles.split_whitespace().map(String::from).collect();
    Deal::parse(&v, false).unwrap()
}

/// The players still in the game at the end, 1-indexed, as the seed prints them.
fn result(piles: &str) -> (GameResult, Vec<usize>) {
    let (r, in_game) = play_deal(&deal(piles), DEFAULT_MAX_ROUNDS, None);
    let players: Vec<usize> = in_game.iter().map(|p| p + 1).collect();
    if let Outcome::Player(p) = r.outcome {
        assert_eq!(
            players,
            vec![usize::from(p) + 1],
            "a winner is the only player left"
        );
    }
    (r, players)
}

/// The seed's tables list, after every turn, the piles and the common pile (bottom first);
/// `TAKES` lines show the state after the take within the same turn.
fn states(piles: &str) -> Vec<String> {
    let mut lines = vec![];
    let mut sink = |l: String| {
        lines.push(l);
        ControlFlow::Continue(())
    };
    play_deal(&deal(piles), DEFAULT_MAX_ROUNDS, Some(&mut sink));
    lines
        .iter()
        .map(|l| {
            let (piles, rest) = l[8..].split_once("  | ").unwrap();
            let common = rest.split("   ").next().unwrap();
            let piles: Vec<&str> = piles.split(' ').filter(|p| *p != "-").collect();
            format!("{} {}", piles.join(" "), common).trim().to_string()
        })
        .collect()
}

/// The seed's step table as the state after each turn: the lines after each play, with a
/// TAKES line's next line replacing it.
fn seed_states(table: &str) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    let lines: Vec<&str> = table
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut i = 0;
    while i < lines.len() {
        let body = lines[i].split_once(' ').map_or("", |x| x.1);
        let body = body.split(" //").next().unwrap().trim();
        if body.contains("TAKES") {
            // The next line is the state after the take: it replaces the turn's state.
            let next = lines[i + 1].split_once(' ').map_or("", |x| x.1);
            *out.last_mut().unwrap() = next.split(" //").next().unwrap().trim().to_string();
            i += 2;
            continue;
        }
        out.push(body.to_string());
        i += 1;
    }
    out
}

const EXAMPLE_1: &str = "1 abba abca\n2 bba abca a\n3 bba bca aa\n4 TAKES\n5 bba bcaaa\n6 bba caaa b\n7 ba caaa bb\n8 TAKES\n9 babb caaa\n10 abb caaa b\n11 abb aaa bc\n12 bb aaa bca\n13 bb aa bcaa\n14 TAKES\n15 bb aabcaa\n16 bb abcaa a\n17 b abcaa ab\n18 b bcaa aba\n19 bcaa abab\n20 caa ababb\n21 OUT TAKES\n22 caaababb";

#[test]
fn snap_example_1_every_state_and_p2_wins_at_turn_13() {
    assert_eq!(states("abba abca"), seed_states(EXAMPLE_1));
    let (r, players) = result("abba abca");
    assert_eq!(
        (r.outcome, r.rounds, players),
        (Outcome::Player(1), 13, vec![2])
    );
}

const EXAMPLE_2: &str = include_str!("example_2.txt");

#[test]
fn snap_example_2_every_state_and_stalemate_at_turn_71() {
    assert_eq!(states("abba acab"), seed_states(EXAMPLE_2));
    let (r, players) = result("abba acab");
    assert_eq!(
        (r.outcome, r.rounds, players),
        (Outcome::Stalemate, 71, vec![1, 2])
    );
}

const EXAMPLE_3: &str = include_str!("example_3.txt");

#[test]
fn snap_example_3_loop_at_line_79_back_to_line_19() {
    let (r, players) = result("bdad acbc abba");
    let cycle = Cycle {
        loop_from: 14,
        cycle_len: 48,
    };
    assert_eq!(
        (r.outcome, r.rounds, r.cycle, players),
        (Outcome::Loop, 62, Some(cycle), vec![1, 3])
    );
    // Our states, turn by turn, are the seed's lines up to the repetition.
    assert_eq!(states("bdad acbc abba"), seed_states(EXAMPLE_3));
}

#[test]
fn seed_io_examples() {
    assert_eq!(result("abca abba").1, vec![1]);
    assert_eq!(result("abba abca").1, vec![2]);
    assert_eq!(result("abba acab").1, vec![1, 2]);
    assert_eq!(result("bdad acbc abba").1, vec![1, 3]);
    assert_eq!(result("fizz buzz").1, vec![2]);
    let ten = "robinhooda ndlittlejo hnwalkingt hroughthef orestlaugh ingbackand forthatwha ttheothero nehastosay";
    assert_eq!(result(ten).1, vec![9]);
}

#[test]
fn numbers_form_is_the_same_game() {
    let v: Vec<String> = ["1,2,2,1", "1,2,3,1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let d = Deal::parse(&v, true).unwrap();
    let (r, _) = play_deal(&d, DEFAULT_MAX_ROUNDS, None);
    assert_eq!((r.outcome, r.rounds), (Outcome::Player(1), 13)); // = abba abca
}

#[test]
fn bad_piles_are_refused() {
    let p = |v: &[&str], n| Deal::parse(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>(), n);
    assert!(p(&["abc"], false)
        .unwrap_err()
        .to_string()
        .contains("two piles"));
    assert!(p(&["abc", ""], false)
        .unwrap_err()
        .to_string()
        .contains("pile 2 is empty"));
    assert!(p(&["abc", "ab"], false)
        .unwrap_err()
        .to_string()
        .contains("pile 2 has 2"));
    assert!(p(&["1,x", "1,2"], true)
        .unwrap_err()
        .to_string()
        .contains("pile 1"));
}

fn random_tables(seed: u64, n: usize) -> Vec<Table> {
    let game = Snap::new(SnapSettings {
        players: 3,
        faces: 5,
        copies: 3,
        max_rounds: 1000,
    })
    .unwrap();
    let mut out = vec![];
    for i in 0..n {
        let mut deck = game.deck.clone();
        shuffle(&mut crate::rng::game_rng(seed, i as u64), &mut deck);
        let mut t = Table::new(3, 15);
        t.set(deck.chunks(5));
        out.push(t);
    }
    out
}

#[test]
fn cards_are_conserved_at_every_turn() {
    for mut t in random_tables(5, 300) {
        let mut counts = [0usize; 6];
        for _ in 0..1000 {
            let ended = t.step();
            counts.fill(0);
            t.piles
                .iter()
                .flat_map(|p| p.iter())
                .chain(t.common.iter())
                .for_each(|c| counts[usize::from(c)] += 1);
            assert_eq!(&counts[1..], &[3; 5]);
            if ended.is_some() {
                break;
            }
        }
    }
}

#[test]
fn a_game_replayed_from_any_state_continues_identically() {
    for t in random_tables(6, 100) {
        let mut full = t.clone();
        let mut trail = vec![];
        for _ in 0..200 {
            let e = full.step();
            trail.push((e, full.clone()));
            if e.is_some() {
                break;
            }
        }
        // Restart from every intermediate state copied into a fresh table.
        for k in 0..trail.len() {
            let mut fresh = Table::new(3, 15);
            fresh.copy_from(&trail[k].1);
            for (e, want) in &trail[k + 1..] {
                assert_eq!(fresh.step(), *e);
                assert!(fresh.same_state(want));
            }
        }
    }
}

/// `exact snap` against a brute force: every ordering of small decks (by swapping, not the
/// unranking), each distinct deal played once through `play_deal`, counted per outcome and
/// length.
#[test]
fn exact_counts_every_distinct_deal_once_as_a_brute_force_does() {
    use std::collections::BTreeMap;
    fn orders(v: &mut Vec<Card>, k: usize, out: &mut Vec<Vec<Card>>) {
        if k == v.len() {
            out.push(v.clone());
            return;
        }
        for i in k..v.len() {
            v.swap(k, i);
            orders(v, k + 1, out);
            v.swap(k, i);
        }
    }
    for (players, faces, copies) in [(2, 2, 2), (2, 3, 2), (3, 3, 2), (2, 2, 4), (2, 4, 2)] {
        let game = Snap::new(SnapSettings {
            players,
            faces,
            copies,
            max_rounds: DEFAULT_MAX_ROUNDS,
        })
        .unwrap();
        let mut all = Vec::new();
        orders(&mut game.deck.clone(), 0, &mut all);
        let mut deals: BTreeMap<Vec<Card>, (u64, Outcome)> = BTreeMap::new();
        for order in all {
            let per = order.len() / players;
            let deal = Deal {
                piles: order.chunks(per).map(<[Card]>::to_vec).collect(),
                symbols: (1..=faces).map(|f| f.to_string()).collect(),
                numbers: true,
            };
            let (r, _) = play_deal(&deal, DEFAULT_MAX_ROUNDS, None);
            deals.insert(order, (r.rounds, r.outcome));
        }
        let n = game.deal_count().unwrap() as u64;
        assert_eq!(n, deals.len() as u64);
        let tally =
            crate::sim::engine::enumerate(&game, 0..n, 2, &|_| {}, &Default::default()).unwrap();
        let mut brute = crate::stats::histogram::Tally::<()>::new(players);
        for (i, &(rounds, outcome)) in deals.values().enumerate() {
            let r = GameResult {
                rounds,
                outcome,
                cycle: None,
                stats: (),
            };
            brute.record(i as u64, &r);
        }
        assert_eq!(tally.rounds, brute.rounds, "{players}p {faces}x{copies}");
    }
}
