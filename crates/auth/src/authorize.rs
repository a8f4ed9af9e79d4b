//! (filled in by the flow commits)
