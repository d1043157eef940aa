//! Did-you-mean hints for misspelt keys and names.

/// The choice closest to `text`, when it is close enough to be a likely typo.
pub fn did_you_mean<'k>(text: &str, choices: impl IntoIterator<Item = &'k str>) -> Option<&'k str> {
    choices
        .into_iter()
        .map(|choice| (jaro_winkler(text, choice), choice))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, choice)| choice)
}

/// Jaro-Winkler similarity over chars, the same number as `strsim::jaro_winkler` (the tests
/// compare them), so hints read as they always have.
pub fn jaro_winkler(a: &str, b: &str) -> f64 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.is_empty() || b.is_empty() {
        return if a.len() == b.len() { 1.0 } else { 0.0 };
    }
    let window = (a.len().max(b.len()) / 2).saturating_sub(1);
    let mut a_matched = vec![false; a.len()];
    let mut b_matched = vec![false; b.len()];
    let mut matches = 0usize;
    for (i, x) in a.iter().enumerate() {
        let low = i.saturating_sub(window);
        let high = b.len().min(i + window + 1);
        for j in low..high {
            if !b_matched[j] && b[j] == *x {
                a_matched[i] = true;
                b_matched[j] = true;
                matches += 1;
                break;
            }
        }
    }
    if matches == 0 {
        return 0.0;
    }
    // Matched characters taken in order on both sides; each pair that differs is half a
    // transposition.
    let in_a = a.iter().zip(&a_matched).filter(|(_, m)| **m);
    let in_b = b.iter().zip(&b_matched).filter(|(_, m)| **m);
    let transpositions = in_a.zip(in_b).filter(|((x, _), (y, _))| x != y).count() / 2;
    let m = matches as f64;
    let jaro = (m / a.len() as f64 + m / b.len() as f64 + (m - transpositions as f64) / m) / 3.0;
    if jaro <= 0.7 {
        return jaro;
    }
    let prefix = a.iter().zip(&b).take(4).take_while(|(x, y)| x == y).count();
    jaro + 0.1 * prefix as f64 * (1.0 - jaro)
}

#[cfg(test)]
mod tests {
    use super::{did_you_mean, jaro_winkler};

    #[test]
    fn jaro_winkler_is_strsims() {
        // Every pair of a few hundred short strings over a small alphabet (many matches and
        // transpositions), plus non-ASCII and long ones.
        let mut words: Vec<String> = Vec::new();
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..300 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 12) as usize;
            let word: String = (0..len)
                .map(|k| ['a', 'b', 'c', 'é', '_', 'µ'][((state >> (4 * k)) % 6) as usize])
                .collect();
            words.push(word);
        }
        words.extend(["", "ä", "amöunt", &"x".repeat(70), &"xy".repeat(40)].map(String::from));
        for a in &words {
            for b in &words {
                let (ours, theirs) = (jaro_winkler(a, b), strsim::jaro_winkler(a, b));
                assert!(
                    (ours - theirs).abs() < 1e-12,
                    "{a:?} {b:?}: {ours} vs {theirs}"
                );
            }
        }
    }

    #[test]
    fn hints_only_close_names() {
        let known = ["pattern", "min_len", "max_len"];
        assert_eq!(did_you_mean("patern", known), Some("pattern"));
        assert_eq!(did_you_mean("zzz", known), None);
    }
}
