//! `report.html`: one self-contained page per output set, to open in any browser and send on.
//!
//! Everything is inline (CSS in a `<style>` element, every chart an `<svg>` element made by the
//! charts' own SVG rendering) and nothing is loaded from anywhere, so the page reads the same
//! offline, from a mail attachment, or with scripts and remote content blocked. Every piece of
//! text goes through [`escape`]: a description or a command line comes from a user.

use std::fmt::Write as _;

use super::table::Row;

/// `text` with the five characters HTML gives a meaning replaced by their entities, safe in an
/// element's text and in a quoted attribute.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            c => s.push(c),
        }
    }
    s
}

const STYLE: &str = "body{font-family:'DejaVu Sans',Verdana,sans-serif;margin:2em auto;\
max-width:1250px;padding:0 1em;color:#222}h1{font-size:1.6em}h2{font-size:1.25em;\
margin-top:1.6em;border-bottom:1px solid #ccc}table{border-collapse:collapse;margin:.5em 0}\
td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}\
td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f2f2f2}\
pre,code{background:#f6f6f6;white-space:pre-wrap;word-break:break-all}\
figure{margin:1em 0}figure svg{max-width:100%;height:auto;border:1px solid #ddd}\
.wide{overflow-x:auto}";

/// A page being built: headings, paragraphs, tables and charts, in order.
pub struct Page {
    body: String,
}

impl Page {
    /// A page whose title and first heading are `title`.
    pub fn new(title: &str) -> Page {
        let mut body = String::new();
        let _ = writeln!(body, "<h1>{}</h1>", escape(title));
        Page { body }
    }

    /// A section heading.
    pub fn heading(&mut self, text: &str) -> &mut Page {
        let _ = writeln!(self.body, "<h2>{}</h2>", escape(text));
        self
    }

    /// A paragraph of text.
    pub fn paragraph(&mut self, text: &str) -> &mut Page {
        let _ = writeln!(self.body, "<p>{}</p>", escape(text));
        self
    }

    /// Preformatted text (a command line).
    pub fn code(&mut self, text: &str) -> &mut Page {
        let _ = writeln!(self.body, "<pre><code>{}</code></pre>", escape(text));
        self
    }

    /// A table with a header row (none where every header is empty); cells that look like
    /// numbers are right-aligned.
    pub fn table(&mut self, header: &[&str], rows: &[Vec<String>]) -> &mut Page {
        self.linked_table(header, rows, None)
    }

    /// A table whose column `link` (if any) holds relative paths, each shown as a link to
    /// itself (a sweep's rule sets, each to its own report).
    pub fn linked_table(
        &mut self,
        header: &[&str],
        rows: &[Vec<String>],
        link: Option<usize>,
    ) -> &mut Page {
        self.body.push_str("<div class=\"wide\"><table>\n");
        if header.iter().any(|h| !h.is_empty()) {
            self.body.push_str("<tr>");
            for h in header {
                let _ = write!(self.body, "<th>{}</th>", escape(h));
            }
            self.body.push_str("</tr>\n");
        }
        for r in rows {
            self.body.push_str("<tr>");
            for (i, c) in r.iter().enumerate() {
                let numeric = c.starts_with(|ch: char| ch.is_ascii_digit() || ch == '-')
                    && !c.contains(char::is_alphabetic);
                let class = if numeric { " class=\"n\"" } else { "" };
                let text = escape(c);
                let _ = if link == Some(i) && !c.is_empty() {
                    write!(self.body, "<td><a href=\"{text}\">{text}</a></td>")
                } else {
                    write!(self.body, "<td{class}>{text}</td>")
                };
            }
            self.body.push_str("</tr>\n");
        }
        self.body.push_str("</table></div>\n");
        self
    }

    /// The summary rows as a table.
    pub fn summary(&mut self, rows: &[Row]) -> &mut Page {
        let cells: Vec<Vec<String>> = rows
            .iter()
            .map(|r| vec![r.name.clone(), r.value.clone(), r.interval.clone()])
            .collect();
        self.table(&["statistic", "value", "95% interval"], &cells)
    }

    /// A chart: `svg`, an SVG document the charts rendered (its XML declaration dropped, as an
    /// element inside HTML takes none), under `caption`.
    pub fn chart(&mut self, caption: &str, svg: &str) -> &mut Page {
        let start = svg.find("<svg").unwrap_or(0);
        let _ = writeln!(
            self.body,
            "<figure>{}<figcaption>{}</figcaption></figure>",
            &svg[start..],
            escape(caption)
        );
        self
    }

    /// The whole document.
    pub fn finish(&self, title: &str) -> String {
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{}</body>\n</html>\n",
            escape(title),
            self.body
        )
    }
}

/// A page of a JSON document's values (`exact`'s chain.json): its description as the title and
/// every value in a table.
pub fn json_page(doc: &serde_json::Value) -> String {
    let title = doc["description"]
        .as_str()
        .unwrap_or("warsim output")
        .to_string();
    let mut page = Page::new(&title);
    page.summary(&super::table::json_rows(doc));
    page.finish(&title)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_text_is_escaped_everywhere() {
        let evil = "<script>alert('x')</script> & \"quoted\"";
        let mut p = Page::new(evil);
        p.heading(evil)
            .paragraph(evil)
            .code(evil)
            .table(&[evil], &[vec![evil.to_string()]])
            .chart(evil, "<svg></svg>");
        let html = p.finish(evil);
        assert!(!html.contains("<script>"), "{html}");
        assert!(!html.contains("'x'"), "{html}");
        assert!(html
            .contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;"));
    }

    #[test]
    fn a_chart_goes_in_as_an_svg_element() {
        let mut p = Page::new("t");
        p.chart("c", "<?xml version=\"1.0\"?>\n<svg width=\"1\"></svg>");
        let html = p.finish("t");
        assert!(html.contains("<figure><svg width=\"1\"></svg><figcaption>c</figcaption>"));
        assert!(!html.contains("<?xml"));
    }
}
