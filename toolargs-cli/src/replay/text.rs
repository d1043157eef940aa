//! What the human reports share: aligned columns, cells escaped for a Markdown table, and
//! text escaped for HTML.

use std::fmt::Write;

/// Writes `rows` (the first one a head, when there is one) as columns two spaces apart,
/// indented by two, the first `left` columns aligned left and the rest right (numbers).
pub(crate) fn aligned(out: &mut String, rows: &[&[String]], left: usize) {
    let columns = rows.iter().map(|row| row.len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .map(|row| row.get(c).map_or(0, |cell| cell.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, w))| {
                if c < left {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        let _ = writeln!(out, "  {}", cells.join("  ").trim_end());
    }
}

/// `s` as a Markdown table cell: its pipes escaped.
pub(super) fn md_escape(s: &str) -> String {
    s.replace('|', "\\|")
}

/// `s` as HTML text or an attribute's value: `&`, `<`, `>` and `"` escaped.
pub(super) fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
