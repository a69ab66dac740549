//! What a Markdown handout is, read back by a CommonMark parser with
//! GitHub's tables and strikethrough on: its headings, code blocks and
//! text, and whether any HTML got through. Shared with the Markdown
//! writer's fuzz target.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

#[derive(Debug, Default, PartialEq, Eq)]
pub struct ReadBack {
    /// The text of each heading, with its level (1 or 2…).
    pub headings: Vec<(u8, String)>,
    /// The text of each code block.
    pub code_blocks: Vec<String>,
    /// The text of each paragraph, a line break as `\n`.
    pub paragraphs: Vec<String>,
    /// HTML blocks and inline HTML: loopstep writes none.
    pub html: Vec<String>,
    /// Links and images: loopstep writes none.
    pub links: Vec<String>,
}

pub fn read_back(markdown: &str) -> ReadBack {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut read = ReadBack::default();
    // The text being gathered, and where it goes when its element ends.
    let mut text: Option<String> = None;
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Start(Tag::Heading { .. } | Tag::CodeBlock(_) | Tag::Paragraph) => {
                text = Some(String::new());
            }
            Event::End(end) => {
                let done = text.take().unwrap_or_default();
                match end {
                    TagEnd::Heading(level) => read.headings.push((level_of(level), done)),
                    TagEnd::CodeBlock => read.code_blocks.push(done),
                    TagEnd::Paragraph => read.paragraphs.push(done),
                    // Inside a paragraph or heading: keep gathering.
                    _ => text = Some(done),
                }
            }
            Event::Text(t) | Event::Code(t) => text.get_or_insert_default().push_str(&t),
            Event::SoftBreak | Event::HardBreak => text.get_or_insert_default().push('\n'),
            Event::Html(html) | Event::InlineHtml(html) => read.html.push(html.into_string()),
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                read.links.push(dest_url.into_string());
            }
            _ => {}
        }
    }
    read
}

fn level_of(level: HeadingLevel) -> u8 {
    level as u8
}
