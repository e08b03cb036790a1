#!/usr/bin/env bash
# Whether two builds give the same answer to every view on one store: live and as of a position, as text and --json.
# Each view is asked of the old build first, then of the new; a difference is printed with the view's arguments.
#   tools/view-answers.sh OLD_BIN NEW_BIN STORE CUSTOMER OWNER PET POSITION
#   tools/view-answers.sh /tmp/old/pawtrail .build/release/pawtrail .scratch/scale-bench/workloads/10M-warm/store \
#     u-J1rk-Cg4QUu u-DGfNKUNJzlY p-Ec8UuSH1Nd4 5000006
# A view whose read model is not caught up yet answers once untimed first (its note says how it was caught up, which
# would differ between the first build to ask and the second). Exits 1 when any answer differs.
set -eu
[ $# -eq 7 ] || { sed -n 2,8p "$0" >&2; exit 64; }
old="$1" new="$2" store="$3" customer="$4" owner="$5" pet="$6" position="$7"
order=$("$new" --store "$store" view orders --customer "$customer" --json | grep -o '"orderId":"[^"]*"' | head -1 | cut -d'"' -f4)
conversation=$("$new" --store "$store" view conversations --user "$customer" --json | grep -o '"conversationId":"[^"]*"' | head -1 | cut -d'"' -f4)
product=$("$new" --store "$store" view catalog --json | grep -o '"productId":"[^"]*"' | head -1 | cut -d'"' -f4)
day=$("$new" --store "$store" log read --all --backward --limit 1 --json | grep -o '"recordedAt":"[0-9-]*' | cut -d'"' -f4)
views=(
  "inventory" "low-stock" "catalog" "dashboard" "sales" "fulfilment" "customers" "services" "reminders" "outbox"
  "agenda --day $day" "product --id $product" "cart --owner $customer" "orders --customer $customer" "order --id $order"
  "activity --user $customer" "pet --id $pet" "pets --owner $owner" "conversations --user $customer"
  "favourites --user $customer" "customer --id $customer" "conversation --id $conversation"
)
differ=0
for v in "${views[@]}"; do
  # shellcheck disable=SC2086
  "$new" --store "$store" view $v > /dev/null 2>&1 || true
  for at in "" "--at-position $position"; do
    for json in "" "--json"; do
      # shellcheck disable=SC2086
      a=$("$old" --store "$store" view $v $at $json 2>&1 | md5sum)
      # shellcheck disable=SC2086
      b=$("$new" --store "$store" view $v $at $json 2>&1 | md5sum)
      if [ "$a" != "$b" ]; then echo "differs: view $v $at $json"; differ=1; fi
    done
  done
done
[ "$differ" = 0 ] && echo "the same answer to each of the ${#views[@]} views, live and at position $position, as text and --json"
exit "$differ"
