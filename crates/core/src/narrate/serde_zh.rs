//! serde's own error messages, in Chinese where their words are fixed.

use crate::engine::MAX_TURNS;

/// serde_json's fixed words in Chinese: its syntax errors whole, its data
/// errors by their opening (serde_json's `ErrorCode` and serde's
/// `de::Error` messages), and loopstep's hint for a file cut short; any
/// other message as serde wrote it.
pub(super) fn serde_zh(message: &str) -> String {
    const CUT_SHORT: &str = " (is the file cut short?)";
    let (message, cut) = match message.strip_suffix(CUT_SHORT) {
        Some(message) => (message, "（文件是不是被截断了？）"),
        None => (message, ""),
    };
    const WHOLE: &[(&str, &str)] = &[
        ("EOF while parsing a list", "列表还没结束，文件就结束了"),
        ("EOF while parsing an object", "对象还没结束，文件就结束了"),
        ("EOF while parsing a string", "字符串还没结束，文件就结束了"),
        ("EOF while parsing a value", "还没读到值，文件就结束了"),
        ("expected `:`", "这里应为 `:`"),
        ("expected `,` or `]`", "这里应为 `,` 或 `]`"),
        ("expected `,` or `}`", "这里应为 `,` 或 `}`"),
        ("expected ident", "这里应为 true、false 或 null"),
        ("expected value", "这里应为一个值"),
        ("expected `\"`", "这里应为 `\"`"),
        ("invalid escape", "无效的转义"),
        ("invalid number", "无效的数字"),
        ("number out of range", "数字超出范围"),
        ("invalid unicode code point", "无效的 Unicode 码位"),
        ("key must be a string", "键必须是字符串"),
        ("trailing comma", "多了一个结尾逗号"),
        ("trailing characters", "值后面还有多余的字符"),
        ("recursion limit exceeded", "嵌套太深"),
    ];
    const OPENING: &[(&str, &str)] = &[
        (
            "control character (\\u0000-\\u001F) found while parsing a string",
            "字符串里有控制字符（\\u0000-\\u001F）",
        ),
        ("invalid type: ", "类型不对："),
        ("missing field ", "缺少字段 "),
        ("unknown field ", "未知字段 "),
        ("unknown variant ", "未知取值 "),
        ("duplicate field ", "字段重复 "),
        ("invalid value: ", "值无效："),
        ("invalid length ", "长度不对 "),
    ];
    // loopstep's own check of a budget in a file (transcript/mod.rs).
    if let Some((_, got)) = message
        .strip_prefix("max_turns must be a whole number from 1")
        .and_then(|rest| rest.rsplit_once(", got "))
    {
        return format!(
            "max_turns 必须是 1（循环至少要调用一次模型）到 {MAX_TURNS}（loopstep 最多重放的轮数）\
             之间的整数，收到的是 {got}"
        );
    }
    let told = WHOLE
        .iter()
        .find(|(en, _)| *en == message)
        .map(|(_, zh)| (*zh).to_owned())
        .or_else(|| {
            OPENING.iter().find_map(|(en, zh)| {
                let rest = message.strip_prefix(en)?;
                Some(format!("{zh}{}", serde_kinds_zh(rest)))
            })
        })
        .unwrap_or_else(|| message.to_owned());
    format!("{told}{cut}")
}

/// serde's names of JSON kinds in a data error, in Chinese (serde's
/// `de::Unexpected` and the `expected …` its derives write).
fn serde_kinds_zh(rest: &str) -> String {
    const KINDS: &[(&str, &str)] = &[
        (", expected ", "，应为 "),
        ("a sequence", "数组"),
        ("a map", "对象"),
        ("a string", "字符串"),
        ("a boolean", "布尔值"),
        ("unsigned integer", "非负整数"),
        ("integer", "整数"),
        ("floating point", "小数"),
        ("boolean", "布尔值"),
        ("string", "字符串"),
        ("sequence", "数组"),
        ("map", "对象"),
        ("one of", "以下之一："),
    ];
    KINDS
        .iter()
        .fold(rest.to_owned(), |text, (en, zh)| text.replace(en, zh))
}
