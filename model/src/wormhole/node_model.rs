//! How a processor connects to its router ([`NodeModel`]): a setting of the simulator ([`super::sim`]) that
//! results ([`super::stats`]) record, in its own file so that both import it and not each other.

use super::error::WormError;

/// How a processor connects to its router.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeModel {
    /// An injection channel and an ejection channel, one flit per cycle each (injection alone allows
    /// 1/b = 200 % of λmax).
    #[default]
    Separate,
    /// One processor–router channel shared by injection and ejection, one flit per cycle in total: when both
    /// have a flit ready, they take turns. A node that injects and receives λ worms of b flits per cycle needs
    /// 2λb ≤ 1, so λmax = 1/(2b) is an upper bound (seed 004's normalisation).
    Shared,
}

impl NodeModel {
    /// The name used on the command line and in results.
    pub fn name(self) -> &'static str {
        match self {
            NodeModel::Separate => "separate",
            NodeModel::Shared => "shared",
        }
    }
}

impl std::str::FromStr for NodeModel {
    type Err = WormError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "separate" => Ok(NodeModel::Separate),
            "shared" => Ok(NodeModel::Shared),
            o => Err(WormError::BadParam(format!(
                "unknown node model '{o}' (separate, shared)"
            ))),
        }
    }
}
