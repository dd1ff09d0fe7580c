# Compares the R program's games with warsim's bryer preset: two-sample KS test on rounds and
# player 1's share of wins. R's `games` omits the deciding round of a finished game, so
# rounds = games + 1 when there is a winner, and 2000 (the cap) when there is none.
#
# Usage: Rscript compare.R R_GAMES_CSV WARSIM_HISTOGRAM_CSV WARSIM_SUMMARY_JSON OUT_JSON
args <- commandArgs(trailingOnly = TRUE)
r <- read.csv(args[1])
h <- read.csv(args[2])
r_rounds <- ifelse(r$winner == 0, r$games, r$games + 1)
ours <- rep(h$rounds, h$count)
p1_ours <- sum(h$p1) / sum(h$count)
p1_r <- mean(r$winner == 1)
se <- sqrt(p1_r * (1 - p1_r) / nrow(r) + p1_ours * (1 - p1_ours) / length(ours))
ks <- suppressWarnings(ks.test(r_rounds, ours))
q <- function(x) as.numeric(quantile(x, c(.01, .25, .5, .75, .99), type = 1))
res <- list(
  r_games = nrow(r), warsim_games = length(ours),
  r_mean_rounds = mean(r_rounds), warsim_mean_rounds = mean(ours),
  r_mean_seed_count = mean(r$games),
  r_sem = sd(r_rounds) / sqrt(nrow(r)), warsim_sem = sd(ours) / sqrt(length(ours)),
  r_quantiles_1_25_50_75_99 = q(r_rounds), warsim_quantiles_1_25_50_75_99 = q(ours),
  r_min = min(r_rounds), r_max = max(r_rounds), r_capped = sum(r$winner == 0),
  r_p1_share = p1_r, warsim_p1_share = p1_ours,
  p1_share_diff_in_se = (p1_ours - p1_r) / se,
  ks_statistic = unname(ks$statistic), ks_p_value = ks$p.value
)
fmt <- function(v) if (length(v) > 1) paste0("[", paste(v, collapse = ", "), "]") else
  if (is.numeric(v)) format(v, digits = 10) else paste0('"', v, '"')
body <- paste0('  "', names(res), '": ', sapply(res, fmt), collapse = ",\n")
writeLines(paste0("{\n", body, "\n}"), args[4])
agree <- abs(res$p1_share_diff_in_se) < 4 && res$ks_p_value > 0.001
cat(sprintf("KS D = %.5f, p = %.4f; player 1 share R %.5f vs warsim %.5f (%.2f SE)\n",
            res$ks_statistic, res$ks_p_value, p1_r, p1_ours, res$p1_share_diff_in_se))
if (!agree) quit(status = 1)
