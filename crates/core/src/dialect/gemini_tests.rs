//! Gemini's wire shapes and its rule, tested against its docs and errors.

use super::super::next_message::examples::{answers, asks};
use super::*;
use crate::vocab::RequestRule;

fn rule(messages: &[Message]) -> Option<RequestRule> {
    super::super::Dialect::Gemini
        .check_request(messages)
        .err()
        .map(|r| r.rule)
}

#[test]
fn as_many_response_parts_as_call_parts_in_the_next_content() {
    // "Please ensure that the number of function response parts is
    // equal to the number of function call parts of the function call
    // turn." (the API's 400 error)
    let q = Message::user_text("Capitals of France and Peru?");
    let good = [
        q.clone(),
        asks(&["call-1", "call-2"]),
        answers(&["call-1", "call-2"]),
    ];
    assert_eq!(rule(&good), None);
    let fewer = [q.clone(), asks(&["call-1", "call-2"]), answers(&["call-1"])];
    assert_eq!(rule(&fewer), Some(RequestRule::UnansweredCalls));
    // Split over two contents, the first already has too few.
    let split = [
        q.clone(),
        asks(&["call-1", "call-2"]),
        answers(&["call-1"]),
        answers(&["call-2"]),
    ];
    assert_eq!(rule(&split), Some(RequestRule::UnansweredCalls));
    let stray = [q, answers(&["call-1"])];
    assert_eq!(rule(&stray), Some(RequestRule::ResultsWithoutCall));
}

#[test]
fn function_calls_and_responses_take_the_documented_shape() {
    let convo = [
        Message::user_text("q"),
        asks(&["call-1"]),
        answers(&["call-1"]),
    ];
    let wire = contents(Messages::of(&convo), 0);
    assert_eq!(wire[1]["role"], "model");
    assert_eq!(wire[1]["parts"][0]["functionCall"]["name"], "get_capital");
    assert_eq!(
        wire[1]["parts"][0]["functionCall"]["args"]["country"],
        "France"
    );
    // FunctionResponse.name "Matches FunctionDeclaration.name and
    // FunctionCall.name"; the output goes under "output".
    let response = &wire[2]["parts"][0]["functionResponse"];
    assert_eq!(response["name"], "get_capital");
    assert_eq!(response["response"]["output"], "Paris");
    // Only the tail, with the names still found before it.
    assert_eq!(contents(Messages::of(&convo), 2)[0], wire[2]);
}

#[test]
fn calls_are_known_by_their_place_and_responses_by_name_in_order() {
    let request = json!({
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "contents": [
            {"role": "user", "parts": [{"text": "q"}]},
            {"role": "model", "parts": [
                {"functionCall": {"name": "a", "args": {}, "id": "pyd_ai_1"}},
                {"functionCall": {"name": "b", "args": {}}}
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"name": "b", "response": {"error": "no"}}},
                {"functionResponse": {"name": "a", "response": {"output": "yes"}}}
            ]}
        ]
    });
    let mut reader = Reader::default();
    let read = read_request(&mut reader, &request);
    assert_eq!(read.system, ["Be brief."]);
    let ids: Vec<_> = read.messages[2]
        .content
        .iter()
        .map(|b| match b {
            Block::ToolResult {
                tool_use_id,
                is_error,
                ..
            } => (tool_use_id.as_str(), *is_error),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(ids, [("call-2", true), ("call-1", false)]);
    // Ids both sides carry pair a call and its response, whatever
    // their order; a model turn split over two contents is one turn.
    let request = json!({"contents": [
        {"role": "user", "parts": [{"text": "q"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}, "id": "x1"}}]},
        {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}, "id": "x2"}}]},
        {"role": "user", "parts": [
            {"functionResponse": {"name": "f", "id": "x2", "response": {"output": "two"}}},
            {"functionResponse": {"name": "f", "id": "x1", "response": {"output": "one"}}}
        ]}
    ]});
    let read = read_request(&mut Reader::default(), &request);
    let answers: Vec<(&str, String)> = read.messages[3]
        .content
        .iter()
        .map(|b| match b {
            Block::ToolResult {
                tool_use_id,
                content,
                ..
            } => (tool_use_id.as_str(), content.to_string()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        answers,
        [("call-2", "two".to_owned()), ("call-1", "one".to_owned())]
    );
    // The reply to this request numbers its calls after the request's.
    let reply = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "a", "args": {}}}
    ]}, "finishReason": "STOP"}]});
    let read = read_response(&mut reader, &reply);
    assert_eq!(read.message.tool_calls().next().unwrap().id, "call-3");
    assert_eq!(read.stop_reason.as_deref(), Some("STOP"));
}

#[test]
fn a_stream_adds_up_its_texts_and_keeps_the_last_finish_reason_and_usage() {
    let events = [
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "The temperature in Paris"}]}}],
               "usageMetadata": {"promptTokenCount": 169}}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": " is 30°C.\n"}]}, "finishReason": "STOP"}],
               "usageMetadata": {"promptTokenCount": 79, "candidatesTokenCount": 9}}),
    ];
    let whole = reassemble(&events);
    assert_eq!(
        whole["candidates"][0]["content"]["parts"],
        json!([{"text": "The temperature in Paris is 30°C.\n"}])
    );
    assert_eq!(whole["candidates"][0]["finishReason"], "STOP");
    assert_eq!(whole["usageMetadata"]["promptTokenCount"], 79);
}

#[test]
fn the_model_is_read_from_the_url() {
    let url = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent?alt=sse";
    assert_eq!(model_in_url(url).as_deref(), Some("gemini-2.5-pro"));
    assert_eq!(model_in_url("https://example.com/v1/chat"), None);
}
