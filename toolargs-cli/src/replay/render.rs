//! The human formats of a replay report: aligned text, Markdown, and one self-contained HTML page.

use std::fmt::Write;

use serde_json::Value;
use toolargs_replay::{Report, Tally, LOAD_WARNINGS_SHOWN, TOP_FIELDS_SHOWN};

use super::recorded;
use super::text::{html_escape, md_escape};

fn pct(n: u64, of: u64) -> String {
    if of == 0 {
        "-".to_owned()
    } else {
        format!("{:.2}%", n as f64 * 100.0 / of as f64)
    }
}

fn key_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => "(none)".to_owned(),
        other => other.to_string(),
    }
}

/// One line of a section: label, count, rate.
type Row = (String, u64, String);

const CALLS_TITLE: &str = "calls";

/// The titled sections of one tally, in a fixed order.
fn sections(t: &Tally) -> Vec<(&'static str, Vec<Row>)> {
    let calls = t.calls();
    let outcome = vec![
        ("ok_clean".to_owned(), t.ok_clean, pct(t.ok_clean, calls)),
        (
            "ok_repaired".to_owned(),
            t.ok_repaired,
            pct(t.ok_repaired, calls),
        ),
        ("rejected".to_owned(), t.rejected, pct(t.rejected, calls)),
    ];
    let per = |m: &std::collections::BTreeMap<&'static str, u64>| {
        m.iter()
            .map(|(k, n)| ((*k).to_owned(), *n, pct(*n, calls)))
            .collect::<Vec<_>>()
    };
    let bad = t
        .bad_records
        .iter()
        .map(|(reason, n)| {
            let lines = t
                .bad_lines
                .get(reason)
                .map(|l| l.iter().map(u64::to_string).collect::<Vec<_>>().join(", "));
            (
                format!("{} (lines {})", reason.as_str(), lines.unwrap_or_default()),
                *n,
                String::new(),
            )
        })
        .collect();
    let unchecked = t
        .unchecked_tools
        .iter()
        .map(|(tool, n)| (tool.clone(), *n, String::new()))
        .collect();
    vec![
        (CALLS_TITLE, outcome),
        ("repairs (rate per call)", per(&t.repairs)),
        ("rejections (calls with the code)", per(&t.rejections)),
        (
            "unchecked (calls to a tool whose definition was refused)",
            unchecked,
        ),
        ("bad records", bad),
    ]
}

/// True when the replay's own counters have something to say: always for a log of calls; for
/// a gate's verdict log, when some of its calls were judged again.
fn judged(report: &Report) -> bool {
    let t = &report.overall;
    report.recorded.is_empty() || t.calls() + t.unchecked > 0
}

/// The summary line's counts: records, calls, unchecked calls (when any), bad records.
fn summary(t: &Tally, strong: &str) -> String {
    let unchecked = if t.unchecked > 0 {
        format!(", {strong}{}{strong} unchecked", t.unchecked)
    } else {
        String::new()
    };
    format!(
        "{strong}{}{strong} records: {strong}{}{strong} calls{unchecked}, {strong}{}{strong} bad records",
        t.total,
        t.calls(),
        t.bad_total()
    )
}

/// The definitions that did not load (tool, pointer, reason) and the load warnings of those
/// that did (tool, pointer, message; the first few), each with its title; `None` when empty.
/// The third column's heading comes second.
type Notes = Vec<(String, &'static str, Vec<[String; 3]>)>;

fn notes(report: &Report) -> Notes {
    let mut out = Vec::new();
    if !report.refused.is_empty() {
        let rows = report
            .refused
            .iter()
            .map(|r| {
                [
                    r.name
                        .clone()
                        .unwrap_or_else(|| format!("(definition {})", r.index)),
                    pointer_text(&r.error.pointer),
                    r.error.message.clone(),
                ]
            })
            .collect();
        out.push((
            format!(
                "refused definitions: {} (their calls are unchecked)",
                report.refused.len()
            ),
            "reason",
            rows,
        ));
    }
    if !report.load_warnings.is_empty() {
        let shown = report.load_warnings.len().min(LOAD_WARNINGS_SHOWN);
        let rows = report.load_warnings[..shown]
            .iter()
            .map(|w| {
                [
                    w.tool.clone(),
                    pointer_text(&w.warning.pointer),
                    w.warning.message.clone(),
                ]
            })
            .collect();
        let title = if shown < report.load_warnings.len() {
            format!(
                "load warnings: {} (the first {shown})",
                report.load_warnings.len()
            )
        } else {
            format!("load warnings: {}", report.load_warnings.len())
        };
        out.push((title, "warning", rows));
    }
    out
}

fn pointer_text(pointer: &str) -> String {
    if pointer.is_empty() {
        "#".to_owned()
    } else {
        pointer.to_owned()
    }
}

/// The per-group table: a header row, then one row per group (key values, calls, the three
/// outcome rates, bad records); `None` without grouping.
fn group_rows(report: &Report) -> Option<Vec<Vec<String>>> {
    if report.groups.is_empty() {
        return None;
    }
    // The unchecked column only when some call was.
    let unchecked = report.overall.unchecked > 0;
    let mut head: Vec<String> = report.by.clone();
    head.extend(["calls", "clean", "repaired", "rejected"].map(String::from));
    if unchecked {
        head.push("unchecked".into());
    }
    head.push("bad".into());
    let mut rows = vec![head];
    for (key, g) in report.groups.values() {
        let mut row: Vec<String> = key.iter().map(key_text).collect();
        let calls = g.calls();
        row.extend([
            calls.to_string(),
            pct(g.ok_clean, calls),
            pct(g.ok_repaired, calls),
            pct(g.rejected, calls),
        ]);
        if unchecked {
            row.push(g.unchecked.to_string());
        }
        row.push(g.bad_total().to_string());
        rows.push(row);
    }
    Some(rows)
}

/// The fields that fail most: tool, field, rejected calls there, their rate among the tool's
/// calls, and the codes at the field; empty when no call was rejected.
fn failing_fields(report: &Report) -> Vec<[String; 5]> {
    report
        .drill
        .top_failing_fields(TOP_FIELDS_SHOWN)
        .into_iter()
        .map(|f| {
            let codes = report.drill.tools[f.tool].fields[f.field]
                .rejections
                .keys()
                .copied()
                .collect::<Vec<_>>()
                .join(", ");
            [
                f.tool.to_owned(),
                f.field.to_owned(),
                f.rejected_calls.to_string(),
                format!("{:.2}%", f.rate * 100.0),
                codes,
            ]
        })
        .collect()
}

const FAILING_TITLE: &str =
    "fields that fail most (rejected calls with an error there, rate per call of the tool)";

/// The first locations of each rule and code: kind, name, locations.
fn examples(report: &Report) -> Vec<[String; 3]> {
    let drill = &report.drill;
    [
        ("repair", &drill.repair_examples),
        ("rejection", &drill.rejection_examples),
    ]
    .into_iter()
    .flat_map(|(kind, map)| {
        map.iter().map(move |(name, kept)| {
            let at: Vec<String> = kept.iter().map(|at| report.location_text(*at)).collect();
            [kind.to_owned(), (*name).to_owned(), at.join(", ")]
        })
    })
    .collect()
}

const EXAMPLES_TITLE: &str = "first examples (file:line)";

/// Aligned plain text.
pub fn table(report: &Report) -> String {
    let t = &report.overall;
    let judged = judged(report);
    let mut out = String::new();
    if !report.recorded.is_empty() {
        let _ = writeln!(out, "gate verdict log: {}", recorded::summary(report, ""));
        out.push_str(&recorded::text(&recorded::tables(report)));
        if judged {
            out.push_str("\ncalls judged again\n");
        }
    }
    if judged {
        let _ = writeln!(out, "{}", summary(t, ""));
    }
    for (title, _, rows) in notes(report) {
        let _ = writeln!(out, "\n{title}");
        let tool_w = rows.iter().map(|r| r[0].chars().count()).max().unwrap_or(0);
        let pointer_w = rows.iter().map(|r| r[1].chars().count()).max().unwrap_or(0);
        for [tool, pointer, message] in rows {
            let _ = writeln!(out, "  {tool:<tool_w$}  {pointer:<pointer_w$}  {message}");
        }
    }
    for (title, rows) in sections(t) {
        if rows.is_empty() || !judged && title == CALLS_TITLE {
            continue;
        }
        let width = rows
            .iter()
            .map(|r| r.0.chars().count())
            .max()
            .unwrap_or(0)
            .max(12);
        let _ = writeln!(out, "\n{title}");
        for (label, n, rate) in rows {
            let _ = writeln!(out, "  {label:<width$}  {n:>10}  {rate:>8}");
        }
    }
    let failing = failing_fields(report);
    if !failing.is_empty() {
        let _ = writeln!(out, "\n{FAILING_TITLE}");
        let w = |c: usize| {
            failing
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        };
        let (w0, w1, w2, w3) = (w(0), w(1), w(2), w(3));
        for [tool, field, n, rate, codes] in &failing {
            let _ = writeln!(
                out,
                "  {tool:<w0$}  {field:<w1$}  {n:>w2$}  {rate:>w3$}  {codes}"
            );
        }
    }
    let examples = examples(report);
    if !examples.is_empty() {
        let _ = writeln!(out, "\n{EXAMPLES_TITLE}");
        let w1 = examples
            .iter()
            .map(|r| r[1].chars().count())
            .max()
            .unwrap_or(0);
        for [kind, name, at] in &examples {
            let _ = writeln!(out, "  {kind:<9}  {name:<w1$}  {at}");
        }
    }
    if let Some(rows) = group_rows(report) {
        let _ = writeln!(out, "\nby {}", report.by.join(", "));
        let rows: Vec<&[String]> = rows.iter().map(Vec::as_slice).collect();
        super::text::aligned(&mut out, &rows, report.by.len());
    }
    out
}

/// GitHub-flavoured Markdown, to paste into a pull request.
pub fn markdown(report: &Report) -> String {
    let t = &report.overall;
    let judged = judged(report);
    let mut out = String::new();
    if !report.recorded.is_empty() {
        let _ = writeln!(out, "Gate verdict log: {}", recorded::summary(report, "**"));
        out.push_str(&recorded::markdown(&recorded::tables(report)));
        if judged {
            out.push_str("\n**Calls judged again**\n\n");
        }
    }
    if judged {
        let _ = writeln!(out, "{}", summary(t, "**"));
    }
    for (title, what, rows) in notes(report) {
        let _ = writeln!(
            out,
            "\n| {} | pointer | {what} |\n|---|---|---|",
            md_escape(&title)
        );
        for [tool, pointer, message] in rows {
            let _ = writeln!(
                out,
                "| `{}` | `{}` | {} |",
                md_escape(&tool),
                md_escape(&pointer),
                md_escape(&message)
            );
        }
    }
    for (title, rows) in sections(t) {
        if rows.is_empty() || !judged && title == CALLS_TITLE {
            continue;
        }
        let _ = writeln!(out, "\n| {title} | count | rate |\n|---|---:|---:|");
        for (label, n, rate) in rows {
            let _ = writeln!(out, "| `{}` | {n} | {rate} |", md_escape(&label));
        }
    }
    let failing = failing_fields(report);
    if !failing.is_empty() {
        let _ = writeln!(
            out,
            "\n| {FAILING_TITLE} | field | calls | rate | codes |\n|---|---|---:|---:|---|"
        );
        for [tool, field, n, rate, codes] in &failing {
            let _ = writeln!(
                out,
                "| `{}` | `{}` | {n} | {rate} | {} |",
                md_escape(tool),
                md_escape(field),
                md_escape(codes)
            );
        }
    }
    let examples = examples(report);
    if !examples.is_empty() {
        let _ = writeln!(out, "\n| {EXAMPLES_TITLE} | name | at |\n|---|---|---|");
        for [kind, name, at] in &examples {
            let _ = writeln!(
                out,
                "| {kind} | `{}` | {} |",
                md_escape(name),
                md_escape(at)
            );
        }
    }
    if let Some(rows) = group_rows(report) {
        let numbers = rows[0].len() - report.by.len();
        for (i, row) in rows.iter().enumerate() {
            let cells: Vec<String> = row.iter().map(|c| md_escape(c)).collect();
            let _ = writeln!(
                out,
                "{}| {} |",
                if i == 0 { "\n" } else { "" },
                cells.join(" | ")
            );
            if i == 0 {
                let _ = writeln!(
                    out,
                    "|{}{}",
                    "---|".repeat(report.by.len()),
                    "---:|".repeat(numbers)
                );
            }
        }
    }
    out
}

/// One horizontal bar chart as inline SVG: a row per (label, rate in 0..=1).
fn bar_chart(title: &str, rows: &[(String, f64)], color: &str) -> String {
    let row_h = 22;
    let label_w = 260;
    let bar_w = 360;
    let height = row_h * rows.len().max(1) + 30;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" role=\"img\" aria-label=\"{}\">\
         <text x=\"0\" y=\"16\" font-weight=\"bold\">{}</text>",
        label_w + bar_w + 70,
        html_escape(title),
        html_escape(title)
    );
    let max = rows.iter().map(|r| r.1).fold(0.0_f64, f64::max).max(1e-9);
    for (i, (label, rate)) in rows.iter().enumerate() {
        let y = 26 + i * row_h;
        let w = (rate / max * bar_w as f64).round();
        let _ = write!(
            svg,
            "<text x=\"0\" y=\"{}\">{}</text><rect x=\"{label_w}\" y=\"{y}\" width=\"{w}\" height=\"{}\" fill=\"{color}\"/>\
             <text x=\"{}\" y=\"{}\">{:.2}%</text>",
            y + 15,
            html_escape(label),
            row_h - 6,
            label_w as f64 + w + 6.0,
            y + 15,
            rate * 100.0
        );
    }
    svg.push_str("</svg>");
    svg
}

/// One self-contained page: summary tables and inline SVG bar charts, no external assets. A
/// gate's verdict log leads with its verdicts over time, then its tables.
pub fn html(report: &Report) -> String {
    let judged = judged(report);
    let mut body = String::new();
    if report.recorded.is_empty() {
        body.push_str("<h1>Tool-call replay</h1>");
    } else {
        html_recorded(&mut body, report, judged);
    }
    if judged {
        let _ = write!(
            body,
            "<p>{}</p>",
            html_escape(&summary(&report.overall, ""))
        );
    }
    html_notes(&mut body, report);
    html_sections(&mut body, &report.overall, judged);
    html_fields(&mut body, report);
    html_groups(&mut body, report);
    if !judged {
        return page(&body, recorded::STYLE);
    }
    html_charts(&mut body, report);
    let style = if report.recorded.is_empty() {
        ""
    } else {
        recorded::STYLE
    };
    page(&body, style)
}

/// The head of a verdict log's page: its summary, a broken chain, the chart and the tables of
/// the recorded verdicts.
fn html_recorded(body: &mut String, report: &Report, judged: bool) {
    let _ = write!(
        body,
        "<h1>Gate verdict log</h1><p>{}</p>",
        html_escape(&recorded::summary(report, ""))
    );
    if let Some(alarm) = recorded::chain_alarm(report) {
        let _ = write!(body, "<p class=\"alarm\">{}</p>", html_escape(&alarm));
    }
    body.extend(recorded::chart(&report.recorded));
    body.push_str(&recorded::html(&recorded::tables(report)));
    if judged {
        body.push_str("<h2>Calls judged again</h2>");
    }
}

/// The refused definitions and load warnings, each with its tool and pointer.
fn html_notes(body: &mut String, report: &Report) {
    for (title, what, rows) in notes(report) {
        let _ = write!(
            body,
            "<table class=\"notes\"><caption>{}</caption><tr><th>tool</th><th>pointer</th><th>{what}</th></tr>",
            html_escape(&title)
        );
        for [tool, pointer, message] in rows {
            let _ = write!(
                body,
                "<tr><td><code>{}</code></td><td><code>{}</code></td><td>{}</td></tr>",
                html_escape(&tool),
                html_escape(&pointer),
                html_escape(&message)
            );
        }
        body.push_str("</table>");
    }
}

/// The counters of the calls (when any were judged), repairs, rejections and bad records.
fn html_sections(body: &mut String, t: &Tally, judged: bool) {
    for (title, rows) in sections(t) {
        if rows.is_empty() || !judged && title == CALLS_TITLE {
            continue;
        }
        let _ = write!(
            body,
            "<table><caption>{}</caption><tr><th></th><th>count</th><th>rate</th></tr>",
            html_escape(title)
        );
        for (label, n, rate) in rows {
            let _ = write!(
                body,
                "<tr><td><code>{}</code></td><td>{n}</td><td>{rate}</td></tr>",
                html_escape(&label)
            );
        }
        body.push_str("</table>");
    }
}

/// The drill-down: the fields that fail most, and the first locations of each rule and code.
fn html_fields(body: &mut String, report: &Report) {
    let failing = failing_fields(report);
    if !failing.is_empty() {
        let _ = write!(
            body,
            "<table class=\"notes\"><caption>{}</caption><tr><th>tool</th><th>field</th><th>calls</th><th>rate</th><th>codes</th>{}</tr>",
            html_escape(FAILING_TITLE),
            report.shown.as_ref().map_or(String::new(), |s| format!(
                "<th>not shown to the model ({})</th>",
                s.dialect.name()
            ))
        );
        for [tool, field, n, rate, codes] in &failing {
            let _ = write!(
                body,
                "<tr><td><code>{}</code></td><td><code>{}</code></td><td>{n}</td><td>{rate}</td><td>{}</td>",
                html_escape(tool),
                html_escape(field),
                html_escape(codes)
            );
            if let Some(shown) = &report.shown {
                let cell: Vec<String> = shown
                    .at(tool, field)
                    .iter()
                    .map(|n| {
                        format!(
                            "<code>{}</code> ({})",
                            html_escape(&n.keyword),
                            html_escape(&n.instead)
                        )
                    })
                    .collect();
                let _ = write!(body, "<td>{}</td>", cell.join("<br>"));
            }
            body.push_str("</tr>");
        }
        body.push_str("</table>");
    }
    let examples = examples(report);
    if !examples.is_empty() {
        let _ = write!(
            body,
            "<table class=\"notes\"><caption>{}</caption><tr><th></th><th>name</th><th>at</th></tr>",
            html_escape(EXAMPLES_TITLE)
        );
        for [kind, name, at] in &examples {
            let _ = write!(
                body,
                "<tr><td>{kind}</td><td><code>{}</code></td><td>{}</td></tr>",
                html_escape(name),
                html_escape(at)
            );
        }
        body.push_str("</table>");
    }
}

/// The counters of each `--by` group, when the report has groups.
fn html_groups(body: &mut String, report: &Report) {
    if let Some(rows) = group_rows(report) {
        let _ = write!(
            body,
            "<table><caption>by {}</caption>",
            html_escape(&report.by.join(", "))
        );
        for (i, row) in rows.iter().enumerate() {
            let tag = if i == 0 { "th" } else { "td" };
            body.push_str("<tr>");
            for cell in row {
                let _ = write!(body, "<{tag}>{}</{tag}>", html_escape(cell));
            }
            body.push_str("</tr>");
        }
        body.push_str("</table>");
    }
}

/// The bar charts: repair and rejection rates per group, then per rule and per code.
fn html_charts(body: &mut String, report: &Report) {
    let t = &report.overall;
    let rate = |n: u64, of: u64| if of == 0 { 0.0 } else { n as f64 / of as f64 };
    let groups: Vec<(String, &Tally)> = if report.groups.is_empty() {
        vec![("all calls".to_owned(), t)]
    } else {
        report
            .groups
            .values()
            .map(|(key, g)| (key.iter().map(key_text).collect::<Vec<_>>().join(" / "), g))
            .collect()
    };
    let by = if report.by.is_empty() {
        String::new()
    } else {
        format!(" by {}", report.by.join(", "))
    };
    let repaired: Vec<(String, f64)> = groups
        .iter()
        .map(|(k, g)| (k.clone(), rate(g.ok_repaired, g.calls())))
        .collect();
    let rejected: Vec<(String, f64)> = groups
        .iter()
        .map(|(k, g)| (k.clone(), rate(g.rejected, g.calls())))
        .collect();
    let _ = write!(body, "<h2>Rates{}</h2>", html_escape(&by));
    body.push_str(&bar_chart("calls repaired", &repaired, "#d08c00"));
    body.push_str(&bar_chart("calls rejected", &rejected, "#c0392b"));
    let rules: Vec<(String, f64)> = t
        .repairs
        .iter()
        .map(|(k, n)| ((*k).to_owned(), rate(*n, t.calls())))
        .collect();
    let codes: Vec<(String, f64)> = t
        .rejections
        .iter()
        .map(|(k, n)| ((*k).to_owned(), rate(*n, t.calls())))
        .collect();
    if !rules.is_empty() {
        body.push_str(&bar_chart("repairs per call, by rule", &rules, "#d08c00"));
    }
    if !codes.is_empty() {
        body.push_str(&bar_chart(
            "rejections per call, by code",
            &codes,
            "#c0392b",
        ));
    }
}

/// The page around a report's body, its style inline (with `style` added).
fn page(body: &str, style: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>toolargs replay</title>\
         <style>body{{font-family:system-ui,sans-serif;margin:2em;max-width:60em}}\
         table{{border-collapse:collapse;margin:1em 0}}td,th{{padding:2px 10px;text-align:right}}\
         td:first-child{{text-align:left}}table.notes td{{text-align:left}}caption{{text-align:left;font-weight:bold}}\
         svg{{display:block;margin:1em 0;font-size:13px}}{style}</style></head><body>{body}</body></html>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolargs_dynamic::LoadWarning;
    use toolargs_replay::ToolWarning;

    #[test]
    fn every_format_counts_load_warnings_and_shows_the_first_few() {
        let warning = |i: usize| {
            ToolWarning::new(
                format!("tool_{i}"),
                LoadWarning::new(
                    format!("/{i}/parameters/properties/when/format"),
                    format!("format `time` is not checked ({i})"),
                ),
            )
        };
        let mut report = Report::default();
        report.load_warnings = (0..LOAD_WARNINGS_SHOWN + 2).map(warning).collect();
        let count = format!("load warnings: {}", LOAD_WARNINGS_SHOWN + 2);
        for out in [table(&report), markdown(&report), html(&report)] {
            assert!(out.contains(&count), "{out}");
            for i in 0..LOAD_WARNINGS_SHOWN {
                assert!(out.contains(&format!("tool_{i}")), "{out}");
                assert!(
                    out.contains(&format!("/{i}/parameters/properties/when/format")),
                    "{out}"
                );
                assert!(out.contains(&format!("is not checked ({i})")), "{out}");
            }
            assert!(
                !out.contains(&format!("tool_{LOAD_WARNINGS_SHOWN}")),
                "{out}"
            );
        }
    }
}
