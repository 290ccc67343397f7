"""Prints every function under the given folders over LIMIT lines, and exits
1 if there is one: test/layout.test keeps the house's rule (docs/Rationale.md,
"Where things live"). A function is a brace block opened at namespace scope
(or in a class, extern "C" or namespace block) that is not itself a class,
struct, enum, union, namespace or extern block; a lambda is measured with the
function around it, so it is never longer than that function. Comments and
string literals are left out before the braces are counted.

Usage: python3 function-lengths.py LIMIT FOLDER...
"""
import pathlib
import re
import sys

SCOPE = re.compile(r'\b(namespace|struct|class|enum|union)\b[^;{}()]*$|extern\s+""\s*$')


def functions(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text,
                  flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\\n])'", "''", text)
    lines = text.split('\n')
    stack = []  # 'scope', ('function', start line) or 'block'
    for number, line in enumerate(lines):
        for column, char in enumerate(line):
            if char == '{':
                inside_scope = not stack or stack[-1] == 'scope'
                if not inside_scope:
                    stack.append('block')
                    continue
                before = ' '.join(lines[max(0, number - 3):number]) + ' ' + line[:column]
                before = before.split(';')[-1].split('}')[-1]
                stack.append('scope' if SCOPE.search(before) else ('function', number))
            elif char == '}' and stack:
                top = stack.pop()
                if isinstance(top, tuple):
                    yield top[1] + 1, number - top[1] + 1


def main():
    limit = int(sys.argv[1])
    over = []
    for folder in sys.argv[2:]:
        for path in sorted(pathlib.Path(folder).rglob('*')):
            if path.suffix not in ('.cpp', '.h'):
                continue
            for start, length in functions(path.read_text()):
                if length > limit:
                    over.append(f'over {limit} lines: {path}:{start} ({length})')
    print('\n'.join(over))
    return 1 if over else 0


sys.exit(main())
