// SPDX-License-Identifier: Apache-2.0
/// `photomap man`: the manual page photomap.1, written from the same declarations as `--help`.
enum ManCommand {
    static let spec = CommandSpec(
        name: "man",
        summary: "print the manual page, photomap.1 (man(7) format)",
        discussion: """
            Prints photomap's manual page in man(7) format, made from the same declarations as --help.
            Read it with `photomap man | man -l -`, or save it as photomap.1 in a man1 folder of $MANPATH.
            """,
        options: [],
        examples: [
            .init("man | man -l -", "read the manual page"),
            .init("man > ~/.local/share/man/man1/photomap.1", "install it for `man photomap`"),
        ])

    static func run(_ parsed: ParsedArguments, configuration: Services, console: Console) throws {
        console.out(ManPage.render(PhotoMap.interface, version: PhotoMap.version))
    }
}
