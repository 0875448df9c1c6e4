#!/usr/bin/env bash
# Session 7: the GPU engine through the new option plan: auto takes the GPU with the paper's
# options, gpu accepts paper-compatible options and refuses host-only ones.
B=.device/kit/yasmin-rs
for e in auto gpu cpu; do for l in res fwd; do
  printf "%-5s %-4s " $e $l; $B examples/queens.aspif -n 0 -q --engine=$e --learning=$l --stats 2>&1 | grep -E "^(Models|SATIS|UNSAT|Kernel)|CPU engine" | tr '\n' ' '; echo " exit=${PIPESTATUS[0]}"
done; done
$B examples/queens.aspif --engine=gpu --restarts=dynamic; echo "exit=$?"
$B examples/queens.aspif --engine=gpu --configuration=paper --restarts=luby --decide=rules -q; echo "exit=$?"
for f in .device/kit/ground/hamiltonian/0061.aspif* .device/kit/ground/ppm/0128*; do
  for e in auto cpu; do printf "%s %s " $(basename $f) $e; xz -dc -f $f 2>/dev/null > /tmp/x.aspif || cp $f /tmp/x.aspif; $B /tmp/x.aspif -q --engine=$e --stats --time-limit=60 2>&1 | grep -E "^(SATIS|UNSAT|UNKNOWN|Kernel launches)" | tr '\n' ' '; echo; done
done
