//! Canonical JSON (Agentic Protocol v0.1, Appendix A) and the package content hash (§6.6).
//! RFC 8785 number and string rules, but keys sort byte-wise on UTF-8 and object members
//! whose value is `null` are dropped at every depth, so equal packages hash equally.

use serde_json::{Number, Value};

use super::tree::{Node, Object, View};
use sha2::{Digest, Sha256};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends the canonical form of `value` (in either kind of tree) to `out`.
pub fn write_canonical<N: Node>(value: &N, out: &mut String) {
    match value.view() {
        View::Null => out.push_str("null"),
        View::Bool(true) => out.push_str("true"),
        View::Bool(false) => out.push_str("false"),
        View::Number(n) => write_number(n, out),
        View::Str(s) => match value.plain_str() {
            // Canonical JSON escapes what compact JSON escapes: nothing, here.
            Some(plain) => {
                out.push('"');
                out.push_str(plain);
                out.push('"');
            }
            None => write_string(s, out),
        },
        View::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        View::Object(map) => write_object(map, out),
    }
}

/// The canonical form as a String.
pub fn to_canonical_string(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

/// "sha256:" + 64 lowercase hex digits of SHA-256 over the canonical UTF-8 bytes.
pub fn content_hash(value: &Value) -> String {
    hash_hex(&to_canonical_string(value))
}

/// [`content_hash`] of an object (in either kind of tree), without building a `Value` around
/// it.
pub fn content_hash_of_map<O: Object>(map: &O) -> String {
    let mut text = String::with_capacity(1024);
    write_object(map, &mut text);
    hash_hex(&text)
}

fn hash_hex(canonical: &str) -> String {
    let digest = Sha256::digest(canonical.as_bytes());
    let mut out = String::with_capacity(7 + 2 * digest.len());
    out.push_str("sha256:");
    for byte in digest {
        out.push(char::from(HEX[usize::from(byte >> 4)]));
        out.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    out
}

/// ECMAScript Number.prototype.toString for a finite f64.
///
/// Non-finite input (which a `serde_json::Value` cannot hold) gives ECMAScript's
/// "NaN" / "Infinity" / "-Infinity" rather than panicking.
pub fn format_number(x: f64) -> String {
    if x.is_nan() {
        return "NaN".to_owned();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    if x == 0.0 {
        return "0".to_owned(); // covers -0
    }
    if x.fract() == 0.0 && x.abs() < EXACT_INTEGERS as f64 {
        return (x as i64).to_string();
    }
    format_shortest(x)
}

/// [`format_number`] for a finite, non-zero `x`, by way of Rust's shortest round-trip digits.
fn format_shortest(x: f64) -> String {
    // `{:e}` yields the shortest round-trip digits, e.g. "1.2345e-7" or "5e-324".
    let (digits, exp) = split_sci(&format!("{:e}", x.abs()));
    let digits = round_ties_to_even(x.abs(), digits, exp);
    let k = digits.len() as i64;
    // Value = 0.d1..dk × 10^n, where Rust printed d1.d2..dk × 10^exp.
    let n = exp + 1;

    let mut out = String::with_capacity(digits.len() + 8);
    if x < 0.0 {
        out.push('-');
    }
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        let (int_part, frac_part) = digits.split_at(n as usize);
        out.push_str(int_part);
        out.push('.');
        out.push_str(frac_part);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n) as usize));
        out.push_str(&digits);
    } else {
        let (first, rest) = digits.split_at(1);
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        out.push('e');
        let e = n - 1;
        out.push(if e >= 0 { '+' } else { '-' });
        out.push_str(&e.unsigned_abs().to_string());
    }
    out
}

/// Splits Rust's `{:e}` output ("d.ddde-N") into its significant digits and exponent.
fn split_sci(sci: &str) -> (String, i64) {
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    let digits = mantissa.chars().filter(char::is_ascii_digit).collect();
    (digits, exp.parse().unwrap_or(0))
}

/// When `abs` lies exactly halfway between two shortest k-digit candidates, Rust rounds
/// the last digit up but ECMAScript takes the even one (1424953923781206.25 → "…206.2").
fn round_ties_to_even(abs: f64, digits: String, exp: i64) -> String {
    let k = digits.len();
    let last = match digits.bytes().last() {
        Some(b) if (b - b'0') % 2 == 1 => b,
        _ => return digits,
    };
    // Cheap filter first: a tie needs the (k+1)-digit rounding to end in 5.
    let (near, near_exp) = split_sci(&format!("{:.*e}", k, abs));
    if near_exp != exp || !near.ends_with('5') {
        return digits;
    }
    // 800 digits covers the exact expansion of every f64 (at most 767 significant digits).
    let (exact, exact_exp) = split_sci(&format!("{:.800e}", abs));
    let exact = exact.trim_end_matches('0');
    if exact_exp != exp || exact.len() != k + 1 || !exact.ends_with('5') {
        return digits;
    }
    let down = &exact[..k];
    let alt = if down != digits {
        down.to_owned()
    } else if last < b'9' {
        format!("{}{}", &digits[..k - 1], char::from(last + 1))
    } else {
        return digits;
    };
    let round_trips = format!("0.{alt}e{}", exp + 1).parse::<f64>() == Ok(abs);
    let even = alt
        .bytes()
        .last()
        .is_some_and(|b| (b - b'0').is_multiple_of(2));
    if round_trips && even && !alt.starts_with('0') {
        alt
    } else {
        digits
    }
}

/// Integers of magnitude below 2^53 print as themselves: every such integer is a double, so
/// no shorter digit string can name it.
const EXACT_INTEGERS: i64 = 1 << 53;

fn write_number(n: &Number, out: &mut String) {
    if let Some(i) = n.as_i64()
        && i.unsigned_abs() < EXACT_INTEGERS as u64
    {
        use std::fmt::Write as _;
        let _ = write!(out, "{i}");
        return;
    }
    match n.as_f64() {
        Some(x) => out.push_str(&format_number(x)),
        // Only a number no double holds (`1e400`), which strict input parsing refuses and the
        // store so never holds: keep its text.
        None => out.push_str(&n.to_string()),
    }
}

fn write_object<O: Object>(map: &O, out: &mut String) {
    // Most objects have a few dozen members at most: sorted on the stack, not in a Vec.
    const ON_STACK: usize = 32;
    let mut stack: [(&str, Option<&O::Node>); ON_STACK] = [("", None); ON_STACK];
    let mut n = 0;
    for (key, value) in map.members().filter(|(_, v)| !v.is_null()) {
        if n == ON_STACK {
            let mut members: Vec<(&str, Option<&O::Node>)> = stack.to_vec();
            members.extend(
                (map.members().filter(|(_, v)| !v.is_null()))
                    .skip(ON_STACK)
                    .map(|(k, v)| (k, Some(v))),
            );
            return write_members(&mut members, out);
        }
        stack[n] = (key, Some(value));
        n += 1;
    }
    write_members(&mut stack[..n], out);
}

/// Writes an object's non-null members in canonical order.
fn write_members<N: Node>(members: &mut [(&str, Option<&N>)], out: &mut String) {
    // `str` ordering is byte-wise on UTF-8, which is what the protocol asks for. Names mostly
    // differ in their first byte, so that is compared before the call that compares the rest.
    members.sort_unstable_by(|a, b| {
        let (a, b) = (a.0.as_bytes(), b.0.as_bytes());
        a.first().cmp(&b.first()).then_with(|| a.cmp(b))
    });
    out.push('{');
    for (i, (key, val)) in members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(key, out);
        out.push(':');
        if let Some(val) = val {
            write_canonical(*val, out);
        }
    }
    out.push('}');
}

fn write_string(s: &str, out: &mut String) {
    out.push('"');
    // Runs that need no escape are copied whole; only `"`, `\` and controls are escaped, all
    // of them ASCII, so a run always ends on a character boundary.
    let mut rest = s;
    while let Some(at) = rest
        .bytes()
        .position(|b| b == b'"' || b == b'\\' || b < 0x20)
    {
        out.push_str(&rest[..at]);
        let c = char::from(rest.as_bytes()[at]);
        rest = &rest[at + 1..];
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{08}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{0c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if u32::from(c) < 0x20 => {
                let b = u32::from(c) as usize;
                out.push_str("\\u00");
                out.push(char::from(HEX[b >> 4]));
                out.push(char::from(HEX[b & 0x0f]));
            }
            c => out.push(c),
        }
    }
    out.push_str(rest);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::fs;
    use std::path::PathBuf;

    fn testdata() -> PathBuf {
        PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/testdata"
        ))
    }

    fn trim_newline(mut bytes: Vec<u8>) -> Vec<u8> {
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
            if bytes.last() == Some(&b'\r') {
                bytes.pop();
            }
        }
        bytes
    }

    fn canon(text: &str) -> String {
        to_canonical_string(&serde_json::from_str(text).unwrap())
    }

    #[test]
    fn jcs_inputs_match_protocol_outputs() {
        let root = testdata();
        let mut checked = 0;
        for entry in fs::read_dir(root.join("jcs/input")).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_owned();
            let input: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
            let expected =
                trim_newline(fs::read(root.join("canonical/output").join(&name)).unwrap());
            let actual = to_canonical_string(&input);
            assert_eq!(
                actual.as_bytes(),
                expected.as_slice(),
                "{name:?}: got {actual}, want {}",
                String::from_utf8_lossy(&expected)
            );
            checked += 1;
        }
        assert!(checked >= 6, "only {checked} vector files found");
    }

    #[test]
    fn spec_6_7_example() {
        let dir = testdata().join("canonical/packages");
        let input: Value =
            serde_json::from_slice(&fs::read(dir.join("spec-6.7-example.json")).unwrap()).unwrap();
        let canonical = fs::read(dir.join("spec-6.7-example.canonical")).unwrap();
        assert_eq!(to_canonical_string(&input).as_bytes(), canonical.as_slice());
        let hash = fs::read_to_string(dir.join("spec-6.7-example.sha256")).unwrap();
        assert_eq!(content_hash(&input), hash.trim());
    }

    #[test]
    fn rfc8785_number_vectors() {
        let cases: &[(u64, &str)] = &[
            (0x0000000000000000, "0"),
            (0x8000000000000000, "0"),
            (0x0000000000000001, "5e-324"),
            (0x8000000000000001, "-5e-324"),
            (0x7fefffffffffffff, "1.7976931348623157e+308"),
            (0xffefffffffffffff, "-1.7976931348623157e+308"),
            (0x4340000000000000, "9007199254740992"),
            (0xc340000000000000, "-9007199254740992"),
            (0x4430000000000000, "295147905179352830000"),
            (0x44b52d02c7e14af5, "9.999999999999997e+22"),
            (0x44b52d02c7e14af6, "1e+23"),
            (0x44b52d02c7e14af7, "1.0000000000000001e+23"),
            (0x444b1ae4d6e2ef4e, "999999999999999700000"),
            (0x444b1ae4d6e2ef4f, "999999999999999900000"),
            (0x444b1ae4d6e2ef50, "1e+21"),
            (0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"),
            (0x3eb0c6f7a0b5ed8d, "0.000001"),
            (0x41b3de4355555553, "333333333.3333332"),
            (0x41b3de4355555554, "333333333.33333325"),
            (0x41b3de4355555555, "333333333.3333333"),
            (0x41b3de4355555556, "333333333.3333334"),
            (0x41b3de4355555557, "333333333.33333343"),
            (0xbecbf647612f3696, "-0.0000033333333333333333"),
            (0x43143ff3c1cb0959, "1424953923781206.2"),
        ];
        for &(bits, want) in cases {
            assert_eq!(
                format_number(f64::from_bits(bits)),
                want,
                "bits {bits:#018x}"
            );
        }
    }

    #[test]
    fn integers_take_the_short_path_to_the_same_text() {
        let mut xs: Vec<i64> = vec![1, 7, 10, 99, 100, 1_000_000, 123_456_789_012_345];
        for shift in 0..53 {
            let p = 1i64 << shift;
            xs.extend([p - 1, p, p + 1, 3 * p / 2]);
        }
        xs.retain(|x| *x > 0 && *x < EXACT_INTEGERS);
        for x in xs {
            for v in [x as f64, -(x as f64)] {
                assert_eq!(format_number(v), format_shortest(v), "{v}");
                assert_eq!(to_canonical_string(&json!(v as i64)), format_shortest(v));
            }
        }
    }

    #[test]
    fn number_edge_cases() {
        assert_eq!(canon("1E30"), "1e+30");
        assert_eq!(canon("56.0"), "56");
        assert_eq!(canon("1e-7"), "1e-7");
        assert_eq!(canon("0.000001"), "0.000001");
        assert_eq!(canon("-0.0"), "0");
        assert_eq!(canon("[0, -1, -42, 123456789]"), "[0,-1,-42,123456789]");
        assert_eq!(
            to_canonical_string(&json!(1u64 << 60)),
            "1152921504606847000"
        );
        assert_eq!(
            to_canonical_string(&json!(i64::MIN)),
            "-9223372036854776000"
        );
        assert_eq!(
            to_canonical_string(&json!(u64::MAX)),
            "18446744073709552000"
        );
        assert_eq!(format_number(f64::NAN), "NaN");
        assert_eq!(format_number(f64::NEG_INFINITY), "-Infinity");
    }

    /// A number keeps the text it was written with (serde_json's `arbitrary_precision`), but
    /// its canonical form is the double it names, so a stored record's text changes no hash.
    #[test]
    fn numbers_keep_their_text_and_hash_as_doubles() {
        let text = r#"{"x-id":123456789012345678901234567890,"x-ratio":0.12345678901234567890123,"x-big":18446744073709551616,"x-neg":-0.0}"#;
        for value in [
            serde_json::from_str::<Value>(text).unwrap(),
            crate::strict::from_str(text).unwrap(),
        ] {
            assert_eq!(value.to_string(), text, "stored as written");
            assert_eq!(
                to_canonical_string(&value),
                r#"{"x-big":18446744073709552000,"x-id":1.2345678901234568e+29,"x-neg":0,"x-ratio":0.12345678901234568}"#
            );
        }
        let tree = crate::tree::Json::parse(text).unwrap();
        let mut compact = Vec::new();
        tree.write_compact(&mut compact);
        assert_eq!(compact, text.as_bytes());
        let mut canonical = String::new();
        write_canonical(&tree, &mut canonical);
        assert_eq!(canonical, canon(text));
        // The same doubles written the short way hash the same.
        let short = r#"{"x-id":1.2345678901234568e29,"x-ratio":0.12345678901234568,"x-big":18446744073709552000,"x-neg":0}"#;
        assert_eq!(canon(short), canon(text));
    }

    #[test]
    fn objects_of_any_size_sort_their_members() {
        for size in [0usize, 1, 31, 32, 33, 100] {
            let mut map = serde_json::Map::new();
            for i in (0..size).rev() {
                map.insert(format!("k{i:03}"), json!(i));
                map.insert(format!("n{i:03}"), Value::Null);
            }
            let text = to_canonical_string(&Value::Object(map));
            let want: Vec<String> = (0..size).map(|i| format!("\"k{i:03}\":{i}")).collect();
            assert_eq!(text, format!("{{{}}}", want.join(",")), "{size} members");
        }
    }

    #[test]
    fn nulls_omitted_from_objects_only() {
        assert_eq!(
            canon(r#"{"a":null,"b":{"c":null},"d":[null]}"#),
            r#"{"b":{},"d":[null]}"#
        );
        assert_eq!(canon("null"), "null");
    }

    #[test]
    fn control_characters_escaped_minimally() {
        let v = json!("\u{0}\u{1f}\u{8}\t\n\u{c}\r\u{7f}/\"\\é😂");
        assert_eq!(
            to_canonical_string(&v),
            "\"\\u0000\\u001f\\b\\t\\n\\f\\r\u{7f}/\\\"\\\\é😂\""
        );
    }

    #[test]
    fn key_order_and_whitespace_do_not_change_hash() {
        let a: Value =
            serde_json::from_str(r#"{"b":[1,2,{"y":1,"x":2}],"a":"s","n":null}"#).unwrap();
        let b: Value = serde_json::from_str(
            "{ \"a\" : \"s\",\n  \"b\" : [ 1, 2.0, { \"x\": 2, \"y\": 1.0 } ] }",
        )
        .unwrap();
        assert_eq!(
            to_canonical_string(&a),
            r#"{"a":"s","b":[1,2,{"x":2,"y":1}]}"#
        );
        let hash = content_hash(&a);
        assert_eq!(hash, content_hash(&b));
        assert_eq!(hash.len(), 7 + 64);
        assert!(
            hash["sha256:".len()..]
                .bytes()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
        assert_eq!(
            content_hash(&json!({})),
            "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
        );
    }
}
