#!/bin/sh
# OPB of each sampled instance, minisat+ and sat4j's PB solver, 20 s CPU each.
Q=/work/target-global/release/queens-sat
for spec in 119:18 186:17 215:18 218:17 895:17; do
  i=${spec%%:*} d=${spec#*:}
  $Q encode --format opb --instance diag-21/diag-21-4-$i.param --diagonals $d -o /tmp/g21/o.opb
  for s in minisat+ sat4j; do
    if [ $s = sat4j ]; then cmd="java -jar /usr/share/java/org.sat4j.pb.jar /tmp/g21/o.opb"; else cmd="minisat+ /tmp/g21/o.opb"; fi
    /usr/bin/time -f "%U %S" -o /tmp/g21/t.txt prlimit --cpu=20 $cmd > /tmp/g21/o.out 2>/dev/null
    ans=$(grep -m1 '^s ' /tmp/g21/o.out || echo "s TIMEOUT")
    echo "diag-21-4-$i:d=$d $s $ans $(awk '{print $1+$2}' /tmp/g21/t.txt | tail -1)"
  done
done
