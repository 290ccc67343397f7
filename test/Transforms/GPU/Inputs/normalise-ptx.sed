# PTX as a gpu.binary prints it (one string, newlines as \0A), with what
# differs between a module compiled whole and kernel by kernel taken out:
# the numbers in branch labels ($L__BB<function>_<block>), comment lines
# and runs of blank lines; and the compile time the object's properties
# record, which differs from run to run.
s/LLVMIRToISATimeInMs = [0-9]+ : i64, //
s/\$L__BB[0-9]+_/$L__BB_/g
s#(\\09)*//([^\\]|\\[^0]|\\0[^A])*\\0A##g
s/(\\09)+\\0A/\\0A/g
s/(\\0A)+/\\0A/g
