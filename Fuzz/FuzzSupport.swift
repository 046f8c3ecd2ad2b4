// Shared by both harnesses (Scripts/fuzz.sh compiles it into each).

/// `precondition` loses its message in an optimised build; a finding should say what broke.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

/// No line feed or carriage return: what would split a log line or a table cell.
func isOneLine(_ text: String) -> Bool {
    !text.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
}
