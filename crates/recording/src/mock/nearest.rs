//! The recorded call nearest to one the recording never made: the same tool with
//! the fewest differing arguments, else the tool whose name is closest.

use serde_json::{Map, Value};

use super::RecordedCall;

/// The nearest recorded call and how far it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Nearest<'a> {
    /// The recorded call.
    pub call: &'a RecordedCall,
    /// Whether it is the same tool (else only its name is close).
    pub same_tool: bool,
    /// Arguments that differ (same tool) or the name's edit distance (another tool).
    pub distance: usize,
}

/// How many argument members differ: present on one side only, or unequal.
fn differing(a: &Map<String, Value>, b: &Map<String, Value>) -> usize {
    let changed = a.iter().filter(|(k, v)| b.get(*k) != Some(*v)).count();
    changed + b.keys().filter(|k| !a.contains_key(*k)).count()
}

/// How many characters of a name the distance reads: the spec's tool names are at
/// most 128 characters, and a hostile session's or client's megabyte name must not
/// make one answer cost a quadratic walk.
const NAME_CHARS: usize = 128;

/// Levenshtein distance between the first [`NAME_CHARS`] characters of two names.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().take(NAME_CHARS).collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().take(NAME_CHARS).enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

/// The recorded call nearest to `name(args)`; the first made wins a tie. `None`
/// when no call was recorded.
pub fn nearest_call<'a>(
    calls: &'a [RecordedCall],
    name: &str,
    args: &Map<String, Value>,
) -> Option<Nearest<'a>> {
    let same = calls
        .iter()
        .filter(|c| c.name == name)
        .map(|c| (c, differing(&c.arguments, args)))
        .min_by_key(|(_, d)| *d);
    if let Some((call, distance)) = same {
        return Some(Nearest {
            call,
            same_tool: true,
            distance,
        });
    }
    calls
        .iter()
        .map(|c| (c, edit_distance(&c.name, name)))
        .min_by_key(|(_, d)| *d)
        .map(|(call, distance)| Nearest {
            call,
            same_tool: false,
            distance,
        })
}

#[cfg(test)]
mod tests {
    use super::edit_distance;

    #[test]
    fn distance_reads_names_up_to_a_bound() {
        assert_eq!(edit_distance("get_weather", "get_wether"), 1);
        // Two megabyte names that differ only past the bound read as equal.
        let a = format!("{}a", "x".repeat(1 << 20));
        let b = format!("{}b", "x".repeat(1 << 20));
        assert_eq!(edit_distance(&a, &b), 0);
        assert_eq!(edit_distance(&a, "x"), 127);
    }
}
