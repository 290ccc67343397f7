#!/bin/sh
# Writes, framed with Content-Length headers, the messages of
# test/obs-lsp-server/hostile.test: an initialize; a file whose brackets
# nest 3,000 deep; a message whose JSON nests 100,000 deep; a message that
# is not a JSON-RPC object; a save of a file opened and closed before and
# one of a file never opened; a request that must still be answered; and a
# shutdown.
frame() { awk '{ printf "Content-Length: %d\r\n\r\n%s", length($0), $0 }'; }
printf '%s\n' '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"processId":1,"rootUri":"test","capabilities":{}}}' | frame
awk 'BEGIN { t = ""; for (i = 0; i < 3000; i++) t = t "\\\"builtin.module\\\"() ({"; for (i = 0; i < 3000; i++) t = t "})";
  printf "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"test:///deep.mlir\",\"languageId\":\"mlir\",\"version\":1,\"text\":\"%s\"}}}\n", t }' | frame
awk 'BEGIN { t = ""; for (i = 0; i < 100000; i++) t = t "["; for (i = 0; i < 100000; i++) t = t "]";
  printf "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":%s}\n", t }' | frame
printf '%s\n' '[1]' | frame
printf '%s\n' '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"test:///closed.mlir","languageId":"mlir","version":1,"text":"obs.kernel @k(%a: !obs.arr<4 x i32>) -> !obs.arr<4 x i32> {\n  obs.return %a : !obs.arr<4 x i32>\n}\n"}}}' | frame
printf '%s\n' '{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"test:///closed.mlir"}}}' | frame
printf '%s\n' '{"jsonrpc":"2.0","method":"textDocument/didSave","params":{"textDocument":{"uri":"test:///closed.mlir"},"text":"bad"}}' | frame
printf '%s\n' '{"jsonrpc":"2.0","method":"textDocument/didSave","params":{"textDocument":{"uri":"test:///never.mlir"},"text":"bad"}}' | frame
printf '%s\n' '{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"test:///never.mlir"},"position":{"line":0,"character":0}}}' | frame
printf '%s\n' '{"jsonrpc":"2.0","id":3,"method":"shutdown"}' | frame
printf '%s\n' '{"jsonrpc":"2.0","method":"exit"}' | frame
