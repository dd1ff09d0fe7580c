# Runs the R program of deck War's seed document itself: its functions check_cards and play_war
# are read from the seed document (or from docs/rules/war.md, which reproduces them) and
# evaluated unchanged.
#
# Usage: Rscript bryer.R SEED_DOC GAMES DEALS CORES OUT_GAMES OUT_DEALS
#   OUT_GAMES: game,games,winner for GAMES games (game i played after set.seed(i))
#   OUT_DEALS: game,p1,p2 for the first DEALS of those games (the hands play_war dealt)
args <- commandArgs(trailingOnly = TRUE)
seed_doc <- args[1]
n_games <- as.integer(args[2])
n_deals <- as.integer(args[3])
cores <- as.integer(args[4])

lines <- readLines(seed_doc, warn = FALSE)
extract <- function(start) {
  i <- grep(start, lines)[1]
  if (is.na(i)) stop(paste("not in the seed document:", start))
  j <- i + which(lines[(i + 1):length(lines)] == "}")[1]
  lines[i:j]
}
eval(parse(text = c(extract("^check_cards <- function"), extract("^play_war <- function"))))

one <- function(i) {
  set.seed(i)
  res <- play_war(print = 0)
  c(res$games, res$winner)
}
m <- do.call(rbind, parallel::mclapply(seq_len(n_games), one, mc.cores = cores))
write.csv(data.frame(game = seq_len(n_games), games = m[, 1], winner = m[, 2]),
          args[5], row.names = FALSE)

# play_war's first random draw is its deal, so the same set.seed(i) reproduces game i's hands.
cards <- rep(1:13, 4)
deals <- t(sapply(seq_len(n_deals), function(i) {
  set.seed(i)
  d <- sample(length(cards), length(cards) / 2, replace = FALSE)
  c(paste(cards[d], collapse = " "), paste(cards[-d], collapse = " "))
}))
write.csv(data.frame(game = seq_len(n_deals), p1 = deals[, 1], p2 = deals[, 2]),
          args[6], row.names = FALSE)
