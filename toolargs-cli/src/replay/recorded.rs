//! The verdicts a gate's verdict log recorded, in the human formats of a replay report: their
//! tables (outcomes, tools, codes, rules, the decisions on meaning and their findings by
//! field, sessions, time buckets, the decisions today's policy makes differently, the hash
//! chain), and the stacked bar chart of outcomes over time that leads the HTML page.

use std::fmt::Write;

use super::text::{html_escape, md_escape};

use toolargs_replay::{
    BucketSpan, OutcomeCounts, Recorded, Report, Timeline, DUPLICATE, NO_ARGUMENTS, NO_DEFINITION,
};

/// How many sessions the tables show, those with the most verdicts (JSON lists them all).
pub const SESSIONS_SHOWN: usize = 20;

/// The outcomes a gate writes today, in the order the tables show them; outcomes named
/// otherwise come after them, in name order.
const KNOWN_OUTCOMES: [&str; 7] = [
    "clean",
    "repaired",
    "rejected",
    "unchecked",
    "blocked",
    "not_confirmed",
    "confirmation_unavailable",
];

/// The decisions on meaning a gate writes, in the order the tables show them.
const KNOWN_DECISIONS: [&str; 5] = [
    "proceed",
    "proceed_and_report",
    "confirm",
    "reject",
    DUPLICATE,
];

/// The verdicts of findings, differences in meaning first, in the order the tables show them.
const KNOWN_VERDICTS: [&str; 5] = [
    "changed",
    "invalid",
    "ambiguous",
    "unverified",
    "equivalent",
];

/// The chart's classes, bottom to top, and their colours; `other` stacks every other outcome.
const CLASSES: [(&str, &str); 4] = [
    ("clean", "#2e8b57"),
    ("repaired", "#d08c00"),
    ("rejected", "#c0392b"),
    ("other", "#7f8c8d"),
];

/// The style of the recorded verdicts' tables in the HTML page: text columns to the left, and
/// no line broken inside a cell (a bucket's time, a caption).
pub const STYLE: &str = "td.text,th.text{text-align:left}\
    table.recorded td,table.recorded th,table.recorded caption{white-space:nowrap}\
    p.alarm{color:#c0392b;font-weight:bold}";

/// One table: a title, a header row, rows; the first `left` columns are text, the others
/// numbers (aligned right).
pub struct Table {
    pub title: String,
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub left: usize,
}

fn pct(n: u64, of: u64) -> String {
    if of == 0 {
        "-".to_owned()
    } else {
        format!("{:.2}%", n as f64 * 100.0 / of as f64)
    }
}

/// Every outcome the log names, in table order.
fn outcome_columns(recorded: &Recorded) -> Vec<&str> {
    columns_of(&KNOWN_OUTCOMES, [&recorded.outcomes])
}

/// The names counted in any of `counts`: those of `known` first, in its order, then the
/// others in name order.
fn columns_of<'a>(
    known: &[&'a str],
    counts: impl IntoIterator<Item = &'a OutcomeCounts> + Clone,
) -> Vec<&'a str> {
    let named = |name: &str| counts.clone().into_iter().any(|c| c.contains_key(name));
    let mut columns: Vec<&str> = known.iter().copied().filter(|k| named(k)).collect();
    let mut others: Vec<&str> = counts
        .into_iter()
        .flat_map(|c| c.keys().map(String::as_str))
        .filter(|name| !known.contains(name))
        .collect();
    others.sort_unstable();
    others.dedup();
    columns.extend(others);
    columns
}

/// A table of verdicts by some key and outcome: the key, the total, one column per outcome.
fn by_outcome<'a>(
    title: String,
    key: &str,
    columns: &[&str],
    rows: impl IntoIterator<Item = (String, &'a OutcomeCounts)>,
) -> Table {
    let mut head = vec![key.to_owned(), "verdicts".to_owned()];
    head.extend(columns.iter().map(|c| (*c).to_owned()));
    let rows = rows
        .into_iter()
        .map(|(label, counts)| {
            let mut row = vec![label, counts.values().sum::<u64>().to_string()];
            row.extend(
                columns
                    .iter()
                    .map(|c| counts.get(*c).copied().unwrap_or(0).to_string()),
            );
            row
        })
        .collect();
    Table {
        title,
        head,
        rows,
        left: 1,
    }
}

/// A bucket's label in a table or the chart: the hour or the day, UTC.
fn bucket_label(timeline: &Timeline, start: i64) -> String {
    timeline.span.label(start)
}

/// The one-line summary: verdicts, how many judged again and decided differently, bad
/// records.
pub fn summary(report: &Report, strong: &str) -> String {
    let r = &report.recorded;
    let mut out = format!(
        "{strong}{}{strong} {} recorded",
        r.records,
        if r.records == 1 {
            "verdict"
        } else {
            "verdicts"
        }
    );
    if r.judged > 0 {
        let _ = write!(
            out,
            ", {strong}{}{strong} judged again ({strong}{}{strong} decided differently today)",
            r.judged, r.changed
        );
    }
    let bad = report.overall.bad_total();
    if bad > 0 {
        let _ = write!(out, ", {strong}{bad}{strong} bad records");
    }
    let broken = chain_breaks(report);
    if !broken.is_empty() {
        let _ = write!(
            out,
            ", {strong}hash chain broken at {}{strong}",
            broken.join(", ")
        );
    } else if !report.chains.is_empty() {
        out.push_str(", hash chain intact");
    }
    out
}

/// The tables of the recorded verdicts, in order.
pub fn tables(report: &Report) -> Vec<Table> {
    let r = &report.recorded;
    let columns = outcome_columns(r);
    let mut out = Vec::new();
    out.extend(chain_table(report));
    count_tables(&mut out, r, &columns);
    meaning_tables(&mut out, r);
    out.push(session_table(r, &columns));
    out.extend(time_table(r, &columns));
    judged_tables(&mut out, report);
    out
}

/// Whether each verdict log's hash chain holds, when any log has one.
fn chain_table(report: &Report) -> Option<Table> {
    if report.chains.is_empty() {
        return None;
    }
    Some(Table {
        title: "hash chain (prev)".to_owned(),
        head: vec!["file".into(), "chain".into(), "lines".into()],
        rows: report
            .chains
            .iter()
            .map(|c| {
                let state = match &c.broken {
                    Some((line, why)) => {
                        format!("breaks at line {line}: {}", short_hashes(why))
                    }
                    None => "intact".to_owned(),
                };
                vec![c.source.clone(), state, c.lines.to_string()]
            })
            .collect(),
        left: 2,
    })
}

/// The verdicts by outcome, by tool, by code and by rule.
fn count_tables(out: &mut Vec<Table>, r: &Recorded, columns: &[&str]) {
    out.push(Table {
        title: "recorded outcomes".to_owned(),
        head: vec!["outcome".into(), "verdicts".into(), "share".into()],
        rows: columns
            .iter()
            .map(|o| {
                let n = r.outcomes[*o];
                vec![(*o).to_owned(), n.to_string(), pct(n, r.records)]
            })
            .collect(),
        left: 1,
    });
    out.push(by_outcome(
        "recorded by tool".to_owned(),
        "tool",
        columns,
        r.tools.iter().map(|(tool, counts)| (tool.clone(), counts)),
    ));
    if !r.codes.is_empty() {
        out.push(Table {
            title: "recorded codes (verdicts with the code)".to_owned(),
            head: vec!["code".into(), "verdicts".into(), "share".into()],
            rows: r
                .codes
                .iter()
                .map(|(code, n)| vec![code.clone(), n.to_string(), pct(*n, r.records)])
                .collect(),
            left: 1,
        });
    }
    if !r.rules.is_empty() {
        out.push(Table {
            title: "recorded rules (every repair)".to_owned(),
            head: vec!["rule".into(), "repairs".into()],
            rows: r
                .rules
                .iter()
                .map(|(rule, n)| vec![rule.clone(), n.to_string()])
                .collect(),
            left: 1,
        });
    }
}

/// The decisions on meaning by tool, and the findings of corrections by tool, field and
/// verdict, when the log holds any.
fn meaning_tables(out: &mut Vec<Table>, r: &Recorded) {
    if !r.meaning_decisions.is_empty() {
        let columns = columns_of(&KNOWN_DECISIONS, r.meaning_decisions.values());
        let mut table = by_outcome(
            "meaning decisions by tool".to_owned(),
            "tool",
            &columns,
            r.meaning_decisions
                .iter()
                .map(|(tool, counts)| (tool.clone(), counts)),
        );
        table.head[1] = "decisions".to_owned();
        out.push(table);
    }
    if !r.meaning_findings.is_empty() {
        let columns = columns_of(&KNOWN_VERDICTS, r.meaning_findings.values());
        let mut head = vec!["tool".to_owned(), "field".to_owned(), "findings".to_owned()];
        head.extend(columns.iter().map(|c| (*c).to_owned()));
        let rows = r
            .meaning_findings
            .iter()
            .map(|((tool, field), counts)| {
                let mut row = vec![
                    tool.clone(),
                    field.clone(),
                    counts.values().sum::<u64>().to_string(),
                ];
                row.extend(
                    columns
                        .iter()
                        .map(|c| counts.get(*c).copied().unwrap_or(0).to_string()),
                );
                row
            })
            .collect();
        out.push(Table {
            title: "meaning findings by field (corrections compared with their original)"
                .to_owned(),
            head,
            rows,
            left: 2,
        });
    }
}

/// The verdicts by session, those with the most first.
fn session_table(r: &Recorded, columns: &[&str]) -> Table {
    let mut sessions: Vec<(&Option<String>, &OutcomeCounts)> = r.sessions.iter().collect();
    // Most verdicts first; the sort is stable, so ties stay in name order.
    sessions.sort_by_key(|(_, counts)| std::cmp::Reverse(counts.values().sum::<u64>()));
    let title = if sessions.len() > SESSIONS_SHOWN {
        format!(
            "recorded by session (the {SESSIONS_SHOWN} with the most verdicts, of {})",
            sessions.len()
        )
    } else {
        "recorded by session".to_owned()
    };
    by_outcome(
        title,
        "session",
        columns,
        sessions
            .into_iter()
            .take(SESSIONS_SHOWN)
            .map(|(s, counts)| (s.clone().unwrap_or_else(|| "(none)".to_owned()), counts)),
    )
}

/// The verdicts by time bucket, hour or day, when any has a time.
fn time_table(r: &Recorded, columns: &[&str]) -> Option<Table> {
    let timeline = r.timeline();
    if timeline.buckets.is_empty() {
        return None;
    }
    let span = timeline.span.as_str();
    let untimed = if r.untimed > 0 {
        format!(", {} verdicts without a time not shown", r.untimed)
    } else {
        String::new()
    };
    Some(by_outcome(
        format!("recorded by {span} (UTC{untimed})"),
        span,
        columns,
        timeline
            .buckets
            .iter()
            .map(|b| (bucket_label(&timeline, b.start), &b.outcomes)),
    ))
}

/// The calls judged again: how many, and those today's policy decides differently.
fn judged_tables(out: &mut Vec<Table>, report: &Report) {
    let r = &report.recorded;
    if r.judged > 0 || !r.not_judged.is_empty() {
        let mut rows = vec![vec!["judged again".to_owned(), r.judged.to_string()]];
        for reason in [NO_ARGUMENTS, NO_DEFINITION] {
            if let Some(n) = r.not_judged.get(reason) {
                rows.push(vec![format!("not judged: {reason}"), n.to_string()]);
            }
        }
        if r.judged > 0 {
            rows.push(vec![
                "compared with the recorded decision".to_owned(),
                r.compared.to_string(),
            ]);
            rows.push(vec![
                "decided differently today".to_owned(),
                r.changed.to_string(),
            ]);
        }
        out.push(Table {
            title: "judged again with today's definitions".to_owned(),
            head: vec!["verdicts".into(), "count".into()],
            rows,
            left: 1,
        });
    }
    if !r.changes.is_empty() {
        out.push(Table {
            title: "decided differently today".to_owned(),
            head: vec!["recorded".into(), "today".into(), "calls".into()],
            rows: r
                .changes
                .iter()
                .map(|((recorded, today), n)| vec![recorded.clone(), today.clone(), n.to_string()])
                .collect(),
            left: 2,
        });
        out.push(Table {
            title: "first decisions changed".to_owned(),
            head: [
                "at",
                "tool",
                "recorded",
                "today",
                "today's codes or rules",
                "recorded codes",
            ]
            .map(String::from)
            .to_vec(),
            rows: r
                .changed_examples
                .iter()
                .map(|c| {
                    let mut today = c.codes.join(", ");
                    if today.is_empty() {
                        today = c.rules.join(", ");
                    }
                    vec![
                        report.location_text(c.at),
                        c.tool.clone(),
                        c.recorded.clone(),
                        c.today.to_owned(),
                        today,
                        c.recorded_codes.join(", "),
                    ]
                })
                .collect(),
            left: 6,
        });
    }
}

/// `text` with each SHA-256 in hex (64 digits) cut to its first 12 digits, for a table (the
/// JSON report has them whole).
fn short_hashes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
        if digits == 64 {
            out.push_str(&rest[..12]);
            out.push('…');
            rest = &rest[64..];
        } else if digits > 0 {
            out.push_str(&rest[..digits]);
            rest = &rest[digits..];
        } else {
            let next = rest.chars().next().map_or(1, char::len_utf8);
            out.push_str(&rest[..next]);
            rest = &rest[next..];
        }
    }
    out
}

/// Where the chains of `report` break, as `FILE:LINE`, in the order they were checked.
fn chain_breaks(report: &Report) -> Vec<String> {
    report
        .chains
        .iter()
        .filter_map(|c| {
            c.broken
                .as_ref()
                .map(|(line, _)| format!("{}:{line}", c.source))
        })
        .collect()
}

/// Where the chains of `report` break, as a warning for the top of a page; `None` when they
/// hold (or none was checked).
pub fn chain_alarm(report: &Report) -> Option<String> {
    let broken = chain_breaks(report);
    (!broken.is_empty()).then(|| {
        format!(
            "The hash chain breaks at {}: the line before was edited or deleted, or this one \
             inserted.",
            broken.join(", ")
        )
    })
}

/// The tables as aligned text.
pub fn text(tables: &[Table]) -> String {
    let mut out = String::new();
    for table in tables {
        let _ = writeln!(out, "\n{}", table.title);
        let all: Vec<&[String]> = std::iter::once(&table.head)
            .chain(&table.rows)
            .map(Vec::as_slice)
            .collect();
        super::text::aligned(&mut out, &all, table.left);
    }
    out
}

/// The tables as GitHub-flavoured Markdown.
pub fn markdown(tables: &[Table]) -> String {
    let mut out = String::new();
    for table in tables {
        let _ = writeln!(out, "\n**{}**\n", md_escape(&table.title));
        let head: Vec<String> = table.head.iter().map(|h| md_escape(h)).collect();
        let _ = writeln!(out, "| {} |", head.join(" | "));
        let align: Vec<&str> = (0..table.head.len())
            .map(|c| if c < table.left { "---" } else { "---:" })
            .collect();
        let _ = writeln!(out, "|{}|", align.join("|"));
        for row in &table.rows {
            let cells: Vec<String> = row.iter().map(|c| md_escape(c)).collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
    }
    out
}

/// The tables as HTML.
pub fn html(tables: &[Table]) -> String {
    let mut out = String::new();
    for table in tables {
        let _ = write!(
            out,
            "<table class=\"recorded\"><caption>{}</caption><tr>",
            html_escape(&table.title)
        );
        for (c, head) in table.head.iter().enumerate() {
            let class = if c < table.left {
                " class=\"text\""
            } else {
                ""
            };
            let _ = write!(out, "<th{class}>{}</th>", html_escape(head));
        }
        out.push_str("</tr>");
        for row in &table.rows {
            out.push_str("<tr>");
            for (c, cell) in row.iter().enumerate() {
                let class = if c < table.left {
                    " class=\"text\""
                } else {
                    ""
                };
                let _ = write!(out, "<td{class}>{}</td>", html_escape(cell));
            }
            out.push_str("</tr>");
        }
        out.push_str("</table>");
    }
    out
}

/// The counts of a bucket in the chart's classes: clean, repaired, rejected, other.
fn classes(counts: &OutcomeCounts) -> [u64; 4] {
    let mut out = [0; 4];
    for (outcome, n) in counts {
        let class = match outcome.as_str() {
            "clean" => 0,
            "repaired" => 1,
            "rejected" => 2,
            _ => 3,
        };
        out[class] += n;
    }
    out
}

/// The smallest of 1, 2 and 5 times a power of ten that is at least `n` (at least 1).
fn nice_ceiling(n: u64) -> u64 {
    let mut step = 1u64;
    loop {
        for m in [1, 2, 5] {
            let candidate = step.saturating_mul(m);
            if candidate >= n || candidate == u64::MAX {
                return candidate;
            }
        }
        step = step.saturating_mul(10);
    }
}

/// The stacked bar chart of verdicts over time, as inline SVG: one group per bucket
/// (`<g class="bucket">`, with a tooltip of its counts), the classes stacked clean, repaired,
/// rejected and other from the bottom; `None` when no verdict has a time.
pub fn chart(recorded: &Recorded) -> Option<String> {
    let timeline = recorded.timeline();
    if timeline.buckets.is_empty() {
        return None;
    }
    let (width, height) = (900.0_f64, 320.0_f64);
    let (left, right, top, bottom) = (56.0, 12.0, 44.0, 48.0);
    let plot_w = width - left - right;
    let plot_h = height - top - bottom;
    let totals: Vec<[u64; 4]> = timeline
        .buckets
        .iter()
        .map(|b| classes(&b.outcomes))
        .collect();
    let max = totals
        .iter()
        .map(|c| c.iter().sum::<u64>())
        .max()
        .unwrap_or(0);
    let scale_max = nice_ceiling(max);
    // Whole counts on the axis: a step of 1, 2 or 5 times a power of ten, five steps or fewer.
    let step = nice_ceiling(scale_max.div_ceil(5));
    let y = |n: f64| top + plot_h - n / scale_max as f64 * plot_h;
    let span = timeline.span.as_str();
    let mut svg = format!(
        "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"recorded verdicts per {span}, by outcome\">"
    );
    let _ = write!(
        svg,
        "<text x=\"0\" y=\"14\" font-weight=\"bold\">verdicts per {span} (UTC)</text>"
    );
    // The legend, with each class's total.
    let mut sums = [0u64; 4];
    for c in &totals {
        for (sum, n) in sums.iter_mut().zip(c) {
            *sum += n;
        }
    }
    let mut x = left;
    for ((name, colour), n) in CLASSES.iter().zip(sums) {
        let _ = write!(
            svg,
            "<rect x=\"{x}\" y=\"22\" width=\"12\" height=\"12\" fill=\"{colour}\"/>\
             <text x=\"{}\" y=\"32\">{name} ({n})</text>",
            x + 16.0
        );
        x += 150.0;
    }
    // Grid lines and their counts, from zero to the scale's top.
    for value in (0..=scale_max).step_by(usize::try_from(step).unwrap_or(usize::MAX)) {
        let at = y(value as f64);
        let label = value;
        let _ = write!(
            svg,
            "<line x1=\"{left}\" y1=\"{at:.1}\" x2=\"{}\" y2=\"{at:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{label}</text>",
            width - right,
            left - 6.0,
            at + 4.0
        );
    }
    let n = timeline.buckets.len();
    let band = plot_w / n as f64;
    // A few buckets are drawn as bars, not as blocks across the whole width.
    let bar = (band * 0.8).clamp(1.0, 48.0);
    // At most about ten labels under the bars, every `every`th bucket.
    let every = n.div_ceil(10).max(1);
    for (i, (bucket, counts)) in timeline.buckets.iter().zip(&totals).enumerate() {
        let label = bucket_label(&timeline, bucket.start);
        let total: u64 = counts.iter().sum();
        let parts: Vec<String> = CLASSES
            .iter()
            .zip(counts)
            .filter(|(_, n)| **n > 0)
            .map(|((name, _), n)| format!("{name} {n}"))
            .collect();
        let tip = match parts.is_empty() {
            true => format!("{label}: no verdict"),
            false => format!("{label}: {total} verdicts ({})", parts.join(", ")),
        };
        let x = left + band * i as f64 + (band - bar) / 2.0;
        let _ = write!(
            svg,
            "<g class=\"bucket\" data-start=\"{}\" data-total=\"{total}\"><title>{}</title>",
            html_escape(&label),
            html_escape(&tip)
        );
        let mut stacked = 0u64;
        for ((name, colour), n) in CLASSES.iter().zip(counts) {
            if *n == 0 {
                continue;
            }
            let (low, high) = (y(stacked as f64), y((stacked + n) as f64));
            stacked += n;
            let _ = write!(
                svg,
                "<rect class=\"{name}\" x=\"{x:.1}\" y=\"{high:.1}\" width=\"{bar:.1}\" height=\"{:.1}\" fill=\"{colour}\"/>",
                low - high
            );
        }
        svg.push_str("</g>");
        if i % every == 0 {
            let _ = write!(
                svg,
                "<text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                left + band * (i as f64 + 0.5),
                top + plot_h + 16.0,
                html_escape(&tick_label(&timeline, bucket.start, i == 0))
            );
        }
    }
    let _ = write!(
        svg,
        "<line x1=\"{left}\" y1=\"{:.1}\" x2=\"{}\" y2=\"{:.1}\" stroke=\"#888\"/>",
        top + plot_h,
        width - right,
        top + plot_h
    );
    if recorded.untimed > 0 {
        let _ = write!(
            svg,
            "<text x=\"{left}\" y=\"{}\">{} verdicts without a time are not shown</text>",
            height - 6.0,
            recorded.untimed
        );
    }
    svg.push_str("</svg>");
    Some(svg)
}

/// A short label under a bar: the hour (`13:00`, with the date on the first bar and at
/// midnight) or the day.
fn tick_label(timeline: &Timeline, start: i64, first: bool) -> String {
    let full = timeline.span.label(start);
    match timeline.span {
        BucketSpan::Hour => {
            let (date, hour) = (full.get(5..10), full.get(11..16));
            match (date, hour) {
                (Some(date), Some(hour)) if first || hour == "00:00" => format!("{date} {hour}"),
                (_, Some(hour)) => hour.to_owned(),
                _ => full,
            }
        }
        _ => full,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_cut_in_tables_and_counts_stay_whole() {
        let a = "a".repeat(64);
        let b = "0123456789".repeat(7);
        assert_eq!(
            short_hashes(&format!("prev is {a}, expected {b}; é {}", &b[..63])),
            format!("prev is {}…, expected {b}; é {}", &a[..12], &b[..63])
        );
        for (n, ceiling) in [(0, 1), (1, 1), (3, 5), (7, 10), (11, 20), (400, 500)] {
            assert_eq!(nice_ceiling(n), ceiling, "{n}");
        }
    }
}
