import Foundation
import Testing
@testable import BLETrace

/// Who may use a PostgreSQL store and how bletrace names it: passwords masked in what it prints, read from
/// `PGPASSWORD` and `~/.pgpass` by libpq; a role with rights on the tables but not on the schema (issue #37).
/// Against the server `BLETRACE_TEST_POSTGRES` names, made by `scripts/test-postgres.sh` (a superuser, and a
/// role `bletrace_pw` that must give a password). Skipped without it.
extension PostgresTriageTests {
    /// The test server's URL or conninfo as another user (and password).
    static func asUser(_ user: String, password: String? = nil) throws -> String {
        let base = try #require(conninfo)
        guard PostgresConninfo.isURL(base) else {
            return base + " user=\(user)" + (password.map { " password='\($0)'" } ?? "")
        }
        var c = try #require(URLComponents(string: base))
        c.user = user
        c.password = password
        return try #require(c.string)
    }

    @Test(.enabled(if: conninfo != nil && ExitStatusTests.binary != nil))
    func theClosingNoteAndTheReportsDoNotShowThePassword() throws {
        let dir = try TriageFleet.make()
        defer { TriageStoreTests.cleanUp(dir) }
        try Self.emptied().close()
        // Trust authentication: the server asks for no password; the URL holds one all the same.
        let user = try #require(URLComponents(string: try #require(Self.conninfo))?.user ?? "bletrace")
        for db in [try Self.asUser(user, password: "s3cret-pw"), try #require(Self.conninfo) + "?password=s3cret-pw"] {
            let run = try TriageCLITests.run(["triage", dir, "--db", db])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.err.contains("into ") && run.err.contains("***"), "\(run.err)")
            #expect(!run.err.contains("s3cret") && !run.out.contains("s3cret"), "\(run.err)")
            for format in ["text", "json", "csv", "markdown"] {
                let report = try TriageCLITests.run(["triage", "--db", db, "--report", "--format", format])
                #expect(report.status == 0 && !report.out.contains("s3cret") && !report.err.contains("s3cret"))
            }
        }
    }

    /// libpq reads the password from PGPASSWORD, or from the password file (PGPASSFILE, else ~/.pgpass), when
    /// the URL has none.
    @Test(.enabled(if: conninfo != nil && ExitStatusTests.binary != nil))
    func thePasswordComesFromPGPASSWORDOrThePasswordFile() throws {
        let admin = try Self.emptied()
        defer { admin.close() }
        try admin.prepare(redacted: false, check: true)
        guard try !admin.run("SELECT 1 FROM pg_roles WHERE rolname = 'bletrace_pw'").rows.isEmpty else {
            Issue.record("no role bletrace_pw: start the server with scripts/test-postgres.sh")
            return
        }
        try admin.command("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO bletrace_pw")
        let db = try Self.asUser("bletrace_pw")
        let args = ["triage", "--db", db, "--report"]
        let none = try TriageCLITests.run(args, environment: ["PGPASSWORD": nil, "PGPASSFILE": "/nonexistent/pgpass"])
        #expect(none.status == 2 && none.err.contains("password"), "\(none.err)")
        let fromEnv = try TriageCLITests.run(args, environment: ["PGPASSWORD": "bletrace-test-password", "PGPASSFILE": "/nonexistent/pgpass"])
        #expect(fromEnv.status == 0, "\(fromEnv.err)")
        let file = NSTemporaryDirectory() + "bletrace-pgpass-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(FileManager.default.createFile(atPath: file, contents: Data("*:*:*:bletrace_pw:bletrace-test-password\n".utf8),
                                               attributes: [.posixPermissions: 0o600]))
        let fromFile = try TriageCLITests.run(args, environment: ["PGPASSWORD": nil, "PGPASSFILE": file])
        #expect(fromFile.status == 0, "\(fromFile.err)")
    }

    /// A role that may read and write the tables but not create anything in the schema triages into tables
    /// an owner made with --create-schema; without them it is told to ask for that.
    @Test(.enabled(if: conninfo != nil && ExitStatusTests.binary != nil))
    func aRoleWithTableRightsOnlyTriagesIntoASchemaMadeBeforehand() throws {
        let dir = try TriageFleet.make()
        defer { TriageStoreTests.cleanUp(dir) }
        let admin = try Self.emptied()
        defer { admin.close() }
        _ = try? admin.command("DROP OWNED BY bletrace_rw")   // left by an earlier run, if any
        try admin.command("DROP ROLE IF EXISTS bletrace_rw")
        try admin.command("CREATE ROLE bletrace_rw LOGIN")
        try admin.command("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        try admin.command("GRANT USAGE ON SCHEMA public TO bletrace_rw")
        let rw = try Self.asUser("bletrace_rw")

        // No tables yet: the role cannot make them, and says what to do.
        let refused = try TriageCLITests.run(["triage", dir, "--db", rw])
        #expect(refused.status == 2)
        #expect(refused.err.contains("may not create them") && refused.err.contains("--create-schema"), "\(refused.err)")
        #expect(refused.err.split(separator: "\n").count == 1)

        let made = try TriageCLITests.run(["triage", "--db", try #require(Self.conninfo), "--create-schema"])
        #expect(made.status == 0 && made.err.contains("has the triage tables (schema version \(TriageSchema.version))"), "\(made.err)")
        try admin.command("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO bletrace_rw")

        let run = try TriageCLITests.run(["triage", dir, "--db", rw])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("triaged 9 captures from 8 files"))
        let again = try TriageCLITests.run(["triage", dir, "--db", rw, "-q"])
        #expect(again.status == 0 && again.out == run.out, "\(again.err)")
        let report = try TriageCLITests.run(["triage", "--db", rw, "--report"])
        #expect(report.status == 0 && report.out == run.out)
        #expect(try admin.load().count == TriageFleet.captures)
        try admin.command("DROP OWNED BY bletrace_rw")
    }
}
