// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title A Chainlink-compatible price feed for Remit's local simulated Base, never a real chain.
/// @notice Remit places this code at the canonical addresses of Chainlink's feeds on Base
/// (EUR/USD, GBP/USD, USDC/USD and the L2 sequencer uptime feed) when it starts the local chain,
/// as it places Circle's USDC at its canonical address, so the code that reads the real feeds
/// (AggregatorV3Interface: latestRoundData, getRoundData, decimals) reads these unchanged.
/// Anyone may move a rate: it is a development chain (`remit dev rate EUR 1.10`).
contract LocalPriceFeed {
    struct Round {
        int256 answer;
        uint64 startedAt;
        uint64 updatedAt;
    }

    uint8 public decimals;
    string public description;
    uint256 public constant version = 4;
    uint80 public latestRound;
    bool private initialized;
    mapping(uint80 => Round) private rounds;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    /// Set once, after the code is placed at its address (no constructor runs there).
    function initialize(uint8 decimals_, string calldata description_) external {
        require(!initialized, "initialized");
        initialized = true;
        decimals = decimals_;
        description = description_;
    }

    /// A new round with `answer`, started and updated in this block.
    function updateAnswer(int256 answer) external {
        push(answer, block.timestamp, block.timestamp);
    }

    /// A new round with the given times: an old (stale) round, or a sequencer status that
    /// changed at `startedAt`.
    function updateRoundData(int256 answer, uint256 startedAt, uint256 updatedAt) external {
        push(answer, startedAt, updatedAt);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return getRoundData(latestRound);
    }

    function getRoundData(uint80 roundId)
        public
        view
        returns (uint80, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        Round memory round = rounds[roundId];
        require(round.updatedAt != 0, "No data present");
        return (roundId, round.answer, round.startedAt, round.updatedAt, roundId);
    }

    function push(int256 answer, uint256 startedAt, uint256 updatedAt) private {
        latestRound += 1;
        rounds[latestRound] = Round(answer, uint64(startedAt), uint64(updatedAt));
        emit AnswerUpdated(answer, latestRound, updatedAt);
    }
}
