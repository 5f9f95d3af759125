// Handlers run inside the test processes: their request lines and metrics would bury jest's report.
// Tests that check logging read a real runner's or a bundle's output, which these do not touch.
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
