// The entry point: parse, run, and report any failure as one line with the
// exit code of ARCHITECTURE.md's command line contract.
await CLI.main(Array(CommandLine.arguments.dropFirst()))
