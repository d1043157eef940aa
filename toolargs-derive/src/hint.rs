//! Did-you-mean hints for misspelt keys and names.

/// The choice closest to `text`, when it is close enough to be a likely typo.
pub fn did_you_mean<'k>(text: &str, choices: impl IntoIterator<Item = &'k str>) -> Option<&'k str> {
    choices
        .into_iter()
        .map(|choice| (strsim::jaro_winkler(text, choice), choice))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, choice)| choice)
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn hints_only_close_names() {
        let known = ["pattern", "min_len", "max_len"];
        assert_eq!(did_you_mean("patern", known), Some("pattern"));
        assert_eq!(did_you_mean("zzz", known), None);
    }
}
