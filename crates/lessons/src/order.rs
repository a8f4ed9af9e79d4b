//! The order a multiple-choice check shows its choices in: shuffled, so the right
//! one is not always first, but seeded by the lesson's name, so a presenter's
//! screen and every learner's show the same order ("pick the second one" works in
//! a room).

/// FNV-1a of `text`: a seed that every build and browser computes alike.
fn seed(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// SplitMix64's step: a well-mixed next number from a counter.
fn mix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The indices `0..n` in the order to show them for the lesson `slug`: a
/// Fisher–Yates shuffle driven by SplitMix64 from the slug's seed.
pub fn shuffled(slug: &str, n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut state = seed(slug);
    for i in (1..n).rev() {
        // i + 1 is at most the number of choices: the cast back cannot lose bits.
        let j = usize::try_from(mix(&mut state) % (i as u64 + 1)).unwrap_or(0);
        order.swap(i, j);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::shuffled;

    #[test]
    fn a_permutation_the_same_every_time() {
        for n in 0..6 {
            let mut o = shuffled("is-error", n);
            assert_eq!(o, shuffled("is-error", n));
            o.sort_unstable();
            assert_eq!(o, (0..n).collect::<Vec<_>>());
        }
        // Different names give different orders somewhere.
        let orders: Vec<_> = ["a", "b", "c", "d", "e", "f"]
            .iter()
            .map(|s| shuffled(s, 3))
            .collect();
        assert!(orders.iter().any(|o| *o != orders[0]));
    }
}
