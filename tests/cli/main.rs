//! The command line as a user runs it: the built binary, real files, exit codes.

mod util;

mod bmn;
mod bmn_record;
mod bmn_search;
mod bmn_search_time;
mod checkpoint;
mod conformance;
mod estimate;
mod exact;
mod golden;
mod guards;
mod help;
mod jitsu;
mod merge;
mod messages;
mod nothing_lost;
mod output;
mod precision;
mod processes;
mod readers;
mod report;
mod resume;
mod search_bounds;
mod small_games;
mod stats;
mod streams;
mod sweep;
mod sweep_resume;
mod terminal;
mod trust;
mod war;
mod war_players;
