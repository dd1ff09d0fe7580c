//! docs/schema/: the JSON Schemas of summary.json, sweep.json, compare.json and a search's
//! document (search.json, census.json, reaching.json), derived from
//! the types that write them (schemars, for what they serialize), never written by hand. This
//! test checks that the committed files are what the types give; `WARSIM_WRITE_SCHEMAS=1 cargo
//! test --release --lib schema` writes them. scripts/check-schemas.py validates every committed
//! results/ file of those kinds against them (CI).

use std::path::Path;

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;

use crate::export::compare::CompareJson;
use crate::export::search::Document;
use crate::export::sweep::SweepJson;
use crate::games::bmn::TricksJson;
use crate::games::war::stats::WarsJson;
use crate::model::summary::Summary;
use crate::stats::game::NoStats;

/// summary.json of any game: the common keys with the game's own part flattened in (War's
/// `wars`, Beggar-my-neighbour's `tricks`; none for the others).
#[derive(JsonSchema)]
#[serde(untagged)]
#[schemars(title = "summary.json")]
#[allow(dead_code)]
enum SummaryFile {
    War(Summary<WarsJson>),
    Bmn(Summary<TricksJson>),
    Other(Summary<NoStats>),
}

/// Each file of docs/schema/ and the schema its type gives, as the files hold it (two-space
/// JSON, a final newline).
fn documents() -> Vec<(&'static str, String)> {
    fn of<T: JsonSchema>() -> String {
        let schema = SchemaSettings::draft2020_12()
            .for_serialize()
            .into_generator()
            .into_root_schema_for::<T>();
        serde_json::to_string_pretty(&schema).unwrap() + "\n"
    }
    vec![
        ("summary.schema.json", of::<SummaryFile>()),
        ("sweep.schema.json", of::<SweepJson>()),
        ("compare.schema.json", of::<CompareJson>()),
        ("search.schema.json", of::<Document<'static>>()),
    ]
}

#[test]
fn docs_schema_is_what_the_output_types_give() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/schema");
    let write = std::env::var_os("WARSIM_WRITE_SCHEMAS").is_some();
    for (name, made) in documents() {
        let path = dir.join(name);
        if write {
            std::fs::write(&path, &made).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == made,
            "docs/schema/{name} is not what the types give: WARSIM_WRITE_SCHEMAS=1 cargo test \
             --release --lib schema writes it"
        );
    }
}
